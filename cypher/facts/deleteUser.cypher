// @invalidates $env
// Detaching removes the user's memberships, role assignments and tenant links with it.
MATCH (u:User {env: $env, key: $key})
DETACH DELETE u
RETURN count(*) AS deleted
