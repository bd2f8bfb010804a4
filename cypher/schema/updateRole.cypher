// @invalidates $env
// @changes role:update
// @row { role: RoleNode; before: RoleNode; after: RoleNode }
MATCH (t:Role {env: $env, key: $key})
WITH t, t {.*} AS before
SET t.name = coalesce($name, t.name),
    t.description = CASE WHEN $setDescription THEN $description ELSE t.description END,
    t.declared_permissions = coalesce($permissions, t.declared_permissions, t.permissions),
    t.updated_at = $nowIso
WITH t AS role, before
// #include fragments/expandPermissions
RETURN role {.*} AS role, before, role {.*} AS after
