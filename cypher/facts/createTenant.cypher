// @invalidates $env
CREATE (t:Tenant:InEnv {env: $env, id: $id, key: $key, name: $name, description: $description,
                        attributes_json: $attributes, created_at: $now, updated_at: $now})
RETURN t {.*} AS tenant
