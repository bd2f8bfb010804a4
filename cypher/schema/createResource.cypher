// @invalidates $env
// @changes resource:create
// @row { key: string }
CREATE (r:Resource:InEnv {env: $env, id: $id, key: $key, name: $name, description: $description,
                          actions: $actions, actions_json: $actions_json, attributes_json: $attributes_json, created_at: $nowIso, updated_at: $nowIso})
RETURN r.key AS key
