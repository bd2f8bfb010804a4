// @invalidates $env
// @changes role:create
// @row { role: RoleNode }
CREATE (t:Role:InEnv {env: $env, id: $id, key: $key, name: $name, description: $description,
                      declared_permissions: $permissions, permissions: $permissions, created_at: $nowIso, updated_at: $nowIso})
WITH t AS role
// #include fragments/expandPermissions
RETURN role {.*} AS role
