// @invalidates $env
// @changes resource:create
// @row { key: string }
// Permit's built-in resource (`__user`: the user attributes), made on its first attribute. Managed
// (docs/behaviour.md section 16): no actions, never in a policy file.
CREATE (r:Resource:InEnv {env: $env, id: $id, key: $key, name: $name, description: null,
                          actions: [], actions_json: '{}', attributes_json: '{}', created_at: $nowIso, updated_at: $nowIso})
RETURN r.key AS key
