// @invalidates $env
CREATE (r:Resource:InEnv {env: $env, id: $id, key: $key, name: $name, description: $description,
                          actions: $actions, actions_json: $actions_json, attributes_json: $attributes_json, created_at: $now, updated_at: $now})
RETURN r.key AS key
