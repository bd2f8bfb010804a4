// @invalidates $env
// @changes role:create
// @row { role: RoleNode }
CREATE (t:Role:InEnv {env: $env, id: $id, key: $key, name: $name, description: $description,
                      permissions: $permissions, created_at: $nowIso, updated_at: $nowIso})
RETURN t {.*} AS role
