// @invalidates $env
// @changes tenant:create
// @row { tenant: TenantNode }
CREATE (t:Tenant:InEnv {env: $env, id: $id, key: $key, name: $name, description: $description,
                        attributes_json: $attributes, created_at: $nowIso, updated_at: $nowIso})
RETURN t {.*} AS tenant
