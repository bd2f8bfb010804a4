// @invalidates $env
// Permit's user sync (PUT users/{key}): creates the user, or replaces its fields; its tenants
// and role assignments stay. `created` tells the caller which happened (201 or 200).
MERGE (u:User:InEnv {env: $env, key: $key})
  ON CREATE SET u.id = $id, u.created_at = $now, u.fresh = true
SET u.email = $email, u.first_name = $first_name, u.last_name = $last_name,
    u.attributes_json = $attributes, u.updated_at = $now
WITH u, coalesce(u.fresh, false) AS created
REMOVE u.fresh
RETURN created
