// @invalidates $env
// Instances named by tuples but missing (Permit's implicit creation), in the tuple's tenant.
UNWIND $items AS x
MATCH (t:Tenant {env: $env, key: x.tenant})
MERGE (i:Instance {env: $env, resource: x.resource, key: x.key})
  ON CREATE SET i:InEnv, i.id = randomUUID(), i.tenant = t.key, i.attributes_json = '{}', i.created_at = $now, i.updated_at = $now
FOREACH (_ IN CASE WHEN i.tenant = t.key THEN [1] ELSE [] END | MERGE (i)-[:IN_TENANT]->(t))
