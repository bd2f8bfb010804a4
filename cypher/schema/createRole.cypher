// @invalidates $env
CREATE (t:Role:InEnv {env: $env, id: $id, key: $key, name: $name, description: $description,
                      permissions: $permissions, created_at: $now, updated_at: $now})
RETURN t {.*} AS role
