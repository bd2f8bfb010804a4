// @invalidates $env
// Permit's bulk replace (PUT bulk/users): each user of $items is created or has its fields
// replaced; tenants and role assignments stay.
UNWIND $items AS x
MERGE (u:User:InEnv {env: $env, key: x.key})
  ON CREATE SET u.id = randomUUID(), u.created_at = $now, u.fresh = true
SET u.email = x.email, u.first_name = x.first_name, u.last_name = x.last_name,
    u.attributes_json = x.attributes, u.updated_at = $now
WITH u, coalesce(u.fresh, false) AS created
REMOVE u.fresh
RETURN count(CASE WHEN created THEN 1 END) AS created, count(*) AS total
