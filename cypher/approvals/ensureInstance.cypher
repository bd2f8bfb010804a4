// @invalidates $env
// The instance an approval is about: found, or created in the tenant. Its tenant is returned so
// that the caller refuses an instance of another tenant (the transaction then writes nothing).
MATCH (t:Tenant {env: $env, key: $tenant})
MATCH (r:Resource {env: $env, key: $resource})
MERGE (i:Instance {env: $env, resource: r.key, key: $key})
  ON CREATE SET i:InEnv, i.id = $id, i.tenant = t.key, i.attributes_json = '{}', i.created_at = $now, i.updated_at = $now
WITH i, t
CALL {
  WITH i, t
  WITH i, t WHERE i.tenant = t.key
  MERGE (i)-[:IN_TENANT]->(t)
}
RETURN i.tenant AS tenant
