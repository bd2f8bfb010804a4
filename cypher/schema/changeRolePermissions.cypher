// @invalidates $env
// Permit's assign / remove permissions, as one atomic change of the role's permission set (two
// concurrent calls never lose each other's permissions). Tenant role when $resource is null.
MATCH (r:Role|ResourceRole {env: $env, key: $key})
WHERE ($resource IS NULL AND r:Role) OR (r:ResourceRole AND r.resource = $resource)
WITH r, coalesce(r.permissions, []) AS current
SET r.permissions = CASE WHEN $add THEN current + [p IN $permissions WHERE NOT p IN current]
                         ELSE [p IN current WHERE NOT p IN $permissions] END,
    r.updated_at = $now
RETURN r.key AS key
