// @invalidates $env
// @changes role_parent:create
// @row { cycle: boolean }
// Role hierarchy: `role` extends `parent` (it gains the parent's permissions), stored as
// (role)-[:EXTENDS]->(parent). Tenant roles when $resource is null, else two roles of $resource.
// The environment node is write-locked first (a temporary property, the Neo4j locking idiom;
// every write transaction locks it anyway to bump the revision): edge additions in one
// environment run one after the other, so two that would together close a cycle, however long,
// cannot both pass the check. `cycle`: nothing written.
MATCH (lock:Environment {id: $env})
SET lock._lock = true
REMOVE lock._lock
WITH lock
MATCH (r:Role|ResourceRole {env: $env, key: $role})
WHERE ($resource IS NULL AND r:Role) OR (r:ResourceRole AND r.resource = $resource)
MATCH (p:Role|ResourceRole {env: $env, key: $parent})
WHERE ($resource IS NULL AND p:Role) OR (p:ResourceRole AND p.resource = $resource)
SET r.updated_at = $nowIso
WITH r, p, (r = p OR EXISTS { MATCH (p)-[:EXTENDS*1..]->(r) }) AS cycle
CALL (r, p, cycle) {
  WITH r, p WHERE NOT cycle
  MERGE (r)-[:EXTENDS]->(p)
}
RETURN cycle
