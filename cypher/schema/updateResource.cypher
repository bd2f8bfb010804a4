// @invalidates $env
// @changes resource:update
// @row { key: string; before: Omit<ResourceNode, 'roles' | 'relations'>; after: Omit<ResourceNode, 'roles' | 'relations'> }
// Sets the given fields. When the action set changes, permissions naming a removed action are
// dropped from the resource's roles and from tenant roles, so nothing names a missing action.
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
  MATCH (rr:ResourceRole {env: $env, resource: r.key})
  WHERE $actions IS NOT NULL
  SET rr.permissions = [p IN coalesce(rr.permissions, []) WHERE p IN $actions]
}
CALL (r) {
  MATCH (t:Role {env: $env})
  WHERE $actions IS NOT NULL AND any(p IN coalesce(t.permissions, []) WHERE p STARTS WITH r.key + ':')
  SET t.permissions = [p IN t.permissions WHERE NOT p STARTS WITH r.key + ':' OR substring(p, size(r.key) + 1) IN $actions]
}
RETURN r.key AS key, before, r {.*} AS after
