// @invalidates $env
// Instance role assignments of $items (checked by the domain); MERGE keeps concurrent duplicates
// out, and `fresh` tells whether this call created the edge.
UNWIND range(0, size($items) - 1) AS idx
WITH idx, $items[idx] AS a
MATCH (u:User {env: $env, key: a.user})
MATCH (t:Tenant {env: $env, key: a.tenant})
MATCH (i:Instance {env: $env, resource: a.resource, key: a.instance})
// Checked by the domain already; checked again here so that a concurrent change cannot link two tenants.
WHERE i.tenant = t.key
MERGE (u)-[r:HAS_ROLE {role: a.role}]->(i)
  ON CREATE SET r.tenant = t.key, r.created_at = $now, r.fresh = true
MERGE (u)-[:IN_TENANT]->(t)
WITH idx, r, coalesce(r.fresh, false) AS created
REMOVE r.fresh
RETURN idx, created, elementId(r) AS id, r.created_at AS created_at
ORDER BY idx
