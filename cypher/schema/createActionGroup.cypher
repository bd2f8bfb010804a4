// @invalidates $env
// @changes action_group:create
// @row { group: ActionGroupNode }
// An action group of resource $resource (a key; the caller holds the resource's lock and checked the
// actions). A key taken on the resource fails on the action_group_key constraint.
MATCH (r:Resource {env: $env, key: $resource})
CREATE (g:ActionGroup:InEnv {env: $env, id: $id, resource: r.key, key: $key, name: $name, description: $description,
                             attributes_json: $attributes_json, actions: $actions, created_at: $nowIso, updated_at: $nowIso})
RETURN g {.*, resource_id: r.id} AS group
