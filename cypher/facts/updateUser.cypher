// @invalidates $env
// @changes user:update
// @row { key: string; before: UserNode; after: UserNode }
MATCH (u:User {env: $env, key: $key})
WITH u, u {.*} AS before
SET u.email = CASE WHEN $set.email THEN $email ELSE u.email END,
    u.first_name = CASE WHEN $set.first_name THEN $first_name ELSE u.first_name END,
    u.last_name = CASE WHEN $set.last_name THEN $last_name ELSE u.last_name END,
    u.attributes_json = coalesce($attributes, u.attributes_json),
    u.updated_at = $nowIso
RETURN u.key AS key, before, u {.*} AS after
