// @invalidates $env
MATCH (t:Tenant {env: $env, key: $tenant})
MATCH (r:Resource {env: $env, key: $resource})
CREATE (i:Instance:InEnv {env: $env, id: $id, resource: r.key, key: $key, tenant: t.key,
                          attributes_json: $attributes, created_at: $now, updated_at: $now})
CREATE (i)-[:IN_TENANT]->(t)
RETURN i {.*, resource_id: r.id, tenant_id: t.id} AS instance
