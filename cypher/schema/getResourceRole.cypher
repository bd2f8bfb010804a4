CALL {
  MATCH (rr:ResourceRole {env: $env, resource: $resource, key: $ref}) RETURN rr
  UNION
  MATCH (rr:ResourceRole {env: $env, resource: $resource}) WHERE rr.id = $ref RETURN rr
}
WITH rr LIMIT 1
OPTIONAL MATCH (r:Resource {env: $env, key: rr.resource})
RETURN rr {.*, resource_id: r.id, derivations: COLLECT {
  MATCH (d:Derivation {env: $env, resource: rr.resource, role: rr.key}) RETURN d {.*} ORDER BY d.on_resource, d.from_role, d.relation
}} AS role
