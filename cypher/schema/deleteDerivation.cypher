// @invalidates $env
// @changes role_derivation:delete
// @row { deleted: number }
MATCH (d:Derivation {env: $env, resource: $resource, role: $role, on_resource: $on_resource, from_role: $from_role, relation: $relation})
DETACH DELETE d
RETURN count(*) AS deleted
