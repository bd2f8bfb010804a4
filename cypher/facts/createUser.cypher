// @invalidates $env
// @changes user:create
// @row UserRow
CREATE (u:User:InEnv {env: $env, id: $id, key: $key, email: $email, first_name: $first_name,
                      last_name: $last_name, attributes_json: $attributes, created_at: $nowIso, updated_at: $nowIso})
RETURN u {.*} AS user, [] AS roles, [] AS tenants
