// @invalidates $env
// Role hierarchy: `role` extends `parent` (it gains the parent's permissions), stored as
// (role)-[:EXTENDS]->(parent). Tenant roles when $resource is null, else two roles of $resource.
// Both nodes are written first: two concurrent additions that would together close a cycle
// then run one after the other, and the second sees the first's edge. `cycle`: nothing written.
MATCH (r:Role|ResourceRole {env: $env, key: $role})
WHERE ($resource IS NULL AND r:Role) OR (r:ResourceRole AND r.resource = $resource)
MATCH (p:Role|ResourceRole {env: $env, key: $parent})
WHERE ($resource IS NULL AND p:Role) OR (p:ResourceRole AND p.resource = $resource)
SET r.updated_at = $now, p.updated_at = p.updated_at
WITH r, p, (r = p OR EXISTS { MATCH (p)-[:EXTENDS*1..]->(r) }) AS cycle
CALL {
  WITH r, p, cycle
  WITH r, p WHERE NOT cycle
  MERGE (r)-[:EXTENDS]->(p)
}
RETURN cycle
