// @invalidates $env
// Permit's bulk replace (PUT bulk/resource_instances), after the domain checked the batch with
// resolveInstances: each instance is created in its tenant, or has its attributes replaced.
UNWIND $items AS x
MATCH (t:Tenant {env: $env, key: x.tenant})
MERGE (i:Instance:InEnv {env: $env, resource: x.resource, key: x.key})
  ON CREATE SET i.id = randomUUID(), i.tenant = t.key, i.created_at = $now, i.fresh = true
SET i.attributes_json = x.attributes, i.updated_at = $now
MERGE (i)-[:IN_TENANT]->(t)
WITH i, coalesce(i.fresh, false) AS created
REMOVE i.fresh
RETURN count(CASE WHEN created THEN 1 END) AS created, count(*) AS total
