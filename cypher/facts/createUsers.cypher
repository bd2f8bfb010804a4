// @invalidates $env
// @changes user:create
// @row { created: number }
// Users of $items; existing users are left as they are.
UNWIND $items AS x
MERGE (u:User:InEnv {env: $env, key: x.key})
  ON CREATE SET u.id = randomUUID(), u.email = x.email, u.first_name = x.first_name, u.last_name = x.last_name,
                u.attributes_json = x.attributes, u.created_at = $nowIso, u.updated_at = $nowIso, u.fresh = true
WITH u, coalesce(u.fresh, false) AS created
REMOVE u.fresh
RETURN count(CASE WHEN created THEN 1 END) AS created
