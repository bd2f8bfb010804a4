// @row { role: ResourceRoleNode }
// A role of a resource by the reference rule (key, else id).
OPTIONAL MATCH (byKey:ResourceRole {env: $env, resource: $resource, key: $ref})
OPTIONAL MATCH (byId:ResourceRole {env: $env, resource: $resource}) WHERE byId.id = $ref
// #include fragments/keyElseId
WITH referenced AS rr WHERE rr IS NOT NULL
OPTIONAL MATCH (r:Resource {env: $env, key: rr.resource})
RETURN rr {.*, resource_id: r.id, derivations: COLLECT {
  MATCH (d:Derivation {env: $env, resource: rr.resource, role: rr.key})
  // #include fragments/derivationRecord
  RETURN derivationRecord ORDER BY d.on_resource, d.from_role, d.relation
}} AS role
