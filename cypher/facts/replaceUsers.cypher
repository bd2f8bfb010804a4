// @invalidates $env
// @changes user:update
// @row { created: number; total: number; changed: { before: UserNode | null; after: UserNode }[] }
// Permit's bulk replace (PUT bulk/users): each user of $items is created or has its fields
// replaced; tenants and role assignments stay. `changed` holds each user's stored state before
// (null when created) and after (src/areas/changes/capture.ts).
UNWIND $items AS x
OPTIONAL MATCH (old:User {env: $env, key: x.key})
WITH x, old {.*} AS before
MERGE (u:User:InEnv {env: $env, key: x.key})
  ON CREATE SET u.id = randomUUID(), u.created_at = $nowIso, u.fresh = true
SET u.email = x.email, u.first_name = x.first_name, u.last_name = x.last_name,
    u.attributes_json = x.attributes, u.updated_at = $nowIso
WITH u, before, coalesce(u.fresh, false) AS created
REMOVE u.fresh
RETURN count(CASE WHEN created THEN 1 END) AS created, count(*) AS total, collect({before: before, after: u {.*}}) AS changed
