// Creates missing instances in the tenant (Permit's implicit creation), then the tuple.
MATCH (t:Tenant {env: $env, key: $tenant})
MERGE (s:Instance:InEnv {env: $env, resource: $subject_type, key: $subject_key})
  ON CREATE SET s.id = $subject_id, s.tenant = t.key, s.attributes_json = '{}', s.created_at = $now, s.updated_at = $now
MERGE (s)-[:IN_TENANT]->(t)
MERGE (o:Instance:InEnv {env: $env, resource: $object_type, key: $object_key})
  ON CREATE SET o.id = $object_id, o.tenant = t.key, o.attributes_json = '{}', o.created_at = $now, o.updated_at = $now
MERGE (o)-[:IN_TENANT]->(t)
MERGE (s)-[r:RELATED {relation: $relation}]->(o)
  ON CREATE SET r.tenant = t.key, r.created_at = $now, r.fresh = true
WITH r, coalesce(r.fresh, false) AS created
REMOVE r.fresh
RETURN created, elementId(r) AS id, r.created_at AS created_at
