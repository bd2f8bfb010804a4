// Tuples of $items (checked by the domain): missing instances are created in the tuple's tenant
// (Permit's implicit creation), then the RELATED edge.
UNWIND range(0, size($items) - 1) AS idx
WITH idx, $items[idx] AS x
MATCH (t:Tenant {env: $env, key: x.tenant})
MERGE (s:Instance:InEnv {env: $env, resource: x.subject_type, key: x.subject_key})
  ON CREATE SET s.id = randomUUID(), s.tenant = t.key, s.attributes_json = '{}', s.created_at = $now, s.updated_at = $now
MERGE (s)-[:IN_TENANT]->(t)
MERGE (o:Instance:InEnv {env: $env, resource: x.object_type, key: x.object_key})
  ON CREATE SET o.id = randomUUID(), o.tenant = t.key, o.attributes_json = '{}', o.created_at = $now, o.updated_at = $now
MERGE (o)-[:IN_TENANT]->(t)
MERGE (s)-[r:RELATED {relation: x.relation}]->(o)
  ON CREATE SET r.tenant = t.key, r.created_at = $now, r.fresh = true
WITH idx, r, coalesce(r.fresh, false) AS created
REMOVE r.fresh
RETURN idx, created, elementId(r) AS id, r.created_at AS created_at
ORDER BY idx
