// @invalidates $env
// Tuples of $items (checked by the domain; missing instances were created just before).
UNWIND range(0, size($items) - 1) AS idx
WITH idx, $items[idx] AS x
MATCH (s:Instance {env: $env, resource: x.subject_type, key: x.subject_key})
MATCH (o:Instance {env: $env, resource: x.object_type, key: x.object_key})
// Checked by the domain already; checked again here so that a concurrent change cannot link two tenants.
WHERE s.tenant = x.tenant AND o.tenant = x.tenant
MERGE (s)-[r:RELATED {relation: x.relation}]->(o)
  ON CREATE SET r.tenant = x.tenant, r.created_at = $now, r.fresh = true
WITH idx, r, coalesce(r.fresh, false) AS created
REMOVE r.fresh
RETURN idx, created, elementId(r) AS id, r.created_at AS created_at
ORDER BY idx
