// @invalidates $env
// @changes action_group:update
// @row { group: ActionGroupNode; before: ActionGroupNode; after: ActionGroupNode }
// Sets the given fields of action group $key of resource $resource (the caller holds the resource's
// lock and checked the actions). When its actions change, every role whose permissions name the
// group has its expanded permissions made again in this statement (fragments/expandPermissions):
// the walks see the new actions with the commit.
MATCH (r:Resource {env: $env, key: $resource})
MATCH (g:ActionGroup {env: $env, resource: r.key, key: $key})
WITH r, g, g {.*} AS before
SET g.name = coalesce($name, g.name),
    g.description = CASE WHEN $setDescription THEN $description ELSE g.description END,
    g.attributes_json = coalesce($attributes_json, g.attributes_json),
    g.actions = coalesce($actions, g.actions),
    g.updated_at = $nowIso
WITH r, g, before
CALL (g) {
  MATCH (role:Role|ResourceRole {env: $env})
  WHERE $actions IS NOT NULL AND ((role:Role AND g.resource + ':' + g.key IN coalesce(role.declared_permissions, role.permissions, []))
     OR (role:ResourceRole AND role.resource = g.resource AND g.key IN coalesce(role.declared_permissions, role.permissions, [])))
// #include fragments/expandPermissions
}
RETURN g {.*, resource_id: r.id} AS group, before, g {.*} AS after
