// @row { total: number; data: ResourceRoleNode[] }
MATCH (r:Resource {env: $env, key: $resource})
MATCH (rr:ResourceRole {env: $env, resource: r.key})
WITH r, rr ORDER BY rr.created_at, rr.key
WITH r, collect(rr) AS items
WITH r, size(items) AS total, items[$skip..($skip + $limit)] AS page
RETURN total, [rr IN page | rr {.*, resource_id: r.id, derivations: COLLECT {
  MATCH (d:Derivation {env: $env, resource: rr.resource, role: rr.key})
  // #include fragments/derivationRecord
  RETURN derivationRecord ORDER BY d.on_resource, d.from_role, d.relation
}}] AS data
