// @invalidates $env
// Instances of $items (checked by the domain); existing ones are left as they are.
UNWIND $items AS x
MATCH (t:Tenant {env: $env, key: x.tenant})
MERGE (i:Instance:InEnv {env: $env, resource: x.resource, key: x.key})
  ON CREATE SET i.id = randomUUID(), i.tenant = t.key, i.attributes_json = x.attributes,
                i.created_at = $now, i.updated_at = $now, i.fresh = true
FOREACH (_ IN CASE WHEN i.tenant = t.key THEN [1] ELSE [] END | MERGE (i)-[:IN_TENANT]->(t))
WITH i, coalesce(i.fresh, false) AS created
REMOVE i.fresh
RETURN count(CASE WHEN created THEN 1 END) AS created
