// @invalidates $env
// @changes resource:update
// @row { key: string; before: Omit<ResourceNode, 'roles' | 'relations'>; after: Omit<ResourceNode, 'roles' | 'relations'> }
// Sets the given fields. When the action set changes, permissions naming a removed action are
// dropped from the resource's action groups, its roles and tenant roles, so nothing names a missing
// action (a permission naming one of the resource's action groups stays), and the roles' expanded
// permissions are made again (fragments/expandPermissions).
MATCH (r:Resource {env: $env, key: $key})
WITH r, r {.*} AS before
SET r.name = coalesce($name, r.name),
    r.description = CASE WHEN $setDescription THEN $description ELSE r.description END,
    r.actions = coalesce($actions, r.actions),
    r.actions_json = coalesce($actions_json, r.actions_json),
    r.attributes_json = coalesce($attributes_json, r.attributes_json),
    r.updated_at = $nowIso
WITH r, before
CALL (r) {
  MATCH (g:ActionGroup {env: $env, resource: r.key})
  WHERE $actions IS NOT NULL
  SET g.actions = [a IN coalesce(g.actions, []) WHERE a IN $actions]
}
WITH r, before, COLLECT { MATCH (g:ActionGroup {env: $env, resource: r.key}) RETURN g.key } AS groupKeys
CALL (r, groupKeys) {
  MATCH (rr:ResourceRole {env: $env, resource: r.key})
  WHERE $actions IS NOT NULL
  SET rr.declared_permissions = [p IN coalesce(rr.declared_permissions, rr.permissions, []) WHERE p IN $actions OR p IN groupKeys]
  WITH rr AS role
// #include fragments/expandPermissions
}
CALL (r, groupKeys) {
  MATCH (t:Role {env: $env})
  WHERE $actions IS NOT NULL AND any(p IN coalesce(t.declared_permissions, t.permissions, []) WHERE p STARTS WITH r.key + ':')
  SET t.declared_permissions = [p IN coalesce(t.declared_permissions, t.permissions) WHERE NOT p STARTS WITH r.key + ':'
                                OR substring(p, size(r.key) + 1) IN $actions OR substring(p, size(r.key) + 1) IN groupKeys]
  WITH t AS role
// #include fragments/expandPermissions
}
RETURN r.key AS key, before, r {.*} AS after
