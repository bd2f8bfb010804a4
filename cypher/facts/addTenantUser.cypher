// @invalidates $env
// @changes tenant_user:create
// @row { key: string }
// Creates the user if missing and makes them belong to the tenant; idempotent.
MATCH (t:Tenant {env: $env, key: $tenant})
MERGE (u:User:InEnv {env: $env, key: $key})
  ON CREATE SET u.id = $id, u.email = $email, u.first_name = $first_name, u.last_name = $last_name,
                u.attributes_json = $attributes, u.created_at = $nowIso, u.updated_at = $nowIso
MERGE (u)-[:IN_TENANT]->(t)
RETURN u.key AS key
