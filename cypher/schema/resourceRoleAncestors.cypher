// @row { role: ResourceRoleNode }
// Every role of `resource` that `role` extends, directly or through others, each once, as
// getResourceRole answers it (with the resource's id and the role's derivations).
MATCH (r:ResourceRole {env: $env, resource: $resource, key: $role})
MATCH (r)-[:EXTENDS*1..]->(a:ResourceRole)
WITH DISTINCT a WHERE a.env = $env AND a.resource = $resource
OPTIONAL MATCH (res:Resource {env: $env, key: $resource})
RETURN a {.*, resource_id: res.id, derivations: COLLECT {
  MATCH (d:Derivation {env: $env, resource: a.resource, role: a.key})
  // #include fragments/derivationRecord
  RETURN derivationRecord ORDER BY d.on_resource, d.from_role, d.relation
}} AS role ORDER BY a.key
