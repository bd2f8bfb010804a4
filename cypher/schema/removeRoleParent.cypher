// @invalidates $env
// @changes role_parent:delete
// @row { removed: number }
// Removes `role` extends `parent` (tenant roles when $resource is null, else roles of $resource).
MATCH (r:Role|ResourceRole {env: $env, key: $role})-[e:EXTENDS]->(p:Role|ResourceRole {env: $env, key: $parent})
WHERE ($resource IS NULL AND r:Role AND p:Role) OR (r:ResourceRole AND r.resource = $resource AND p.resource = $resource)
DELETE e
SET r.updated_at = $nowIso
RETURN count(*) AS removed
