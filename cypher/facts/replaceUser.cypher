// @invalidates $env
// @changes user:update
// @row { created: boolean; before: UserNode | null; after: UserNode }
// Permit's user sync (PUT users/{key}): creates the user, or replaces its fields; its tenants
// and role assignments stay. `created` tells the caller which happened (201 or 200); `before`
// (null when created) and `after` are its stored states (src/areas/changes/capture.ts).
OPTIONAL MATCH (old:User {env: $env, key: $key})
WITH old {.*} AS before
MERGE (u:User:InEnv {env: $env, key: $key})
  ON CREATE SET u.id = $id, u.created_at = $nowIso, u.fresh = true
SET u.email = $email, u.first_name = $first_name, u.last_name = $last_name,
    u.attributes_json = $attributes, u.updated_at = $nowIso
WITH u, before, coalesce(u.fresh, false) AS created
REMOVE u.fresh
RETURN created, before, u {.*} AS after
