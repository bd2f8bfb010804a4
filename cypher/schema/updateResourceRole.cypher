// @invalidates $env
// @changes resource_role:update
// @row { key: string; before: Omit<ResourceRoleNode, 'derivations'>; after: Omit<ResourceRoleNode, 'derivations'> }
MATCH (rr:ResourceRole {env: $env, resource: $resource, key: $key})
WITH rr, rr {.*} AS before
SET rr.name = coalesce($name, rr.name),
    rr.description = CASE WHEN $setDescription THEN $description ELSE rr.description END,
    rr.declared_permissions = coalesce($permissions, rr.declared_permissions, rr.permissions),
    rr.updated_at = $nowIso
WITH rr AS role, before
// #include fragments/expandPermissions
RETURN role.key AS key, before, role {.*} AS after
