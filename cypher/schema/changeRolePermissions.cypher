// @invalidates $env
// @changes role:update each $permissions
// @row { key: string }
// Permit's assign / remove permissions, as one atomic change of the role's permission set. Tenant
// role when $resource is null. The first SET takes the role's write lock and only then is the set
// read: a concurrent change waits for this one's commit and reads what it wrote, so two
// concurrent calls never lose each other's permissions (a read in a WITH before the lock would).
MATCH (r:Role|ResourceRole {env: $env, key: $key})
WHERE ($resource IS NULL AND r:Role) OR (r:ResourceRole AND r.resource = $resource)
SET r.updated_at = $nowIso
WITH r, coalesce(r.declared_permissions, r.permissions, []) AS current
SET r.declared_permissions = CASE WHEN $add THEN current + [p IN $permissions WHERE NOT p IN current]
                                  ELSE [p IN current WHERE NOT p IN $permissions] END
WITH r AS role
// #include fragments/expandPermissions
RETURN role.key AS key
