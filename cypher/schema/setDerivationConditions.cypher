// @invalidates $env
// @changes role_derivation:update
// @row { updated: number }
// Permit's PUT implicit_grants/conditions: the `when` of every rule that grants `role` on `resource`.
MATCH (d:Derivation {env: $env, resource: $resource, role: $role})
SET d.no_direct_roles_on_object = $no_direct_roles_on_object
RETURN count(d) AS updated
