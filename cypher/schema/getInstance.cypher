// By "type:key" ($resource, $key) or by id ($ref).
CALL {
  MATCH (i:Instance {env: $env, resource: $resource, key: $key}) RETURN i
  UNION
  MATCH (i:Instance {id: $ref}) WHERE i.env = $env RETURN i
}
WITH i LIMIT 1
OPTIONAL MATCH (r:Resource {env: $env, key: i.resource})
OPTIONAL MATCH (t:Tenant {env: $env, key: i.tenant})
RETURN i {.*, resource_id: r.id, tenant_id: t.id} AS instance
