// @invalidates $env
// Tenant role assignments of $items (checked by the domain).
UNWIND range(0, size($items) - 1) AS idx
WITH idx, $items[idx] AS a
MATCH (u:User {env: $env, key: a.user})
MATCH (t:Tenant {env: $env, key: a.tenant})
MERGE (u)-[r:HAS_TENANT_ROLE {role: a.role}]->(t)
  ON CREATE SET r.created_at = $now, r.fresh = true
MERGE (u)-[:IN_TENANT]->(t)
WITH idx, r, coalesce(r.fresh, false) AS created
REMOVE r.fresh
RETURN idx, created, elementId(r) AS id, r.created_at AS created_at
ORDER BY idx
