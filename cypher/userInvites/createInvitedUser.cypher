// @invalidates $env
// @changes user:create
// @row { created: boolean; changed: { after: UserNode }[] }
// The user an invite is redeemed into: made with the invite's key, email and names and
// $attributes when there is none; an existing user of that key is left as it is (no change event).
MERGE (u:User:InEnv {env: $env, key: $key})
  ON CREATE SET u.id = $id, u.email = $email, u.first_name = $firstName, u.last_name = $lastName,
                u.attributes_json = $attributes, u.created_at = $nowIso, u.updated_at = $nowIso, u.fresh = true
WITH u, coalesce(u.fresh, false) AS created
REMOVE u.fresh
RETURN created, CASE WHEN created THEN [{after: u {.*}}] ELSE [] END AS changed
