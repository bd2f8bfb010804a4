// @invalidates $env
// @changes role_derivation:delete
// @row { deleted: number }
// Clears the rules that grant `role` on `resource` (before a PATCH with granted_to sets new ones).
MATCH (d:Derivation {env: $env, resource: $resource, role: $role})
DETACH DELETE d
RETURN count(*) AS deleted
