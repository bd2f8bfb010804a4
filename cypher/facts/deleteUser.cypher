// @invalidates $env
// @changes user:delete
// @row { deleted: number; before: UserNode | null }
// Detaching removes the user's memberships, role assignments and tenant links with it.
MATCH (u:User {env: $env, key: $key})
WITH u, u {.*} AS before
DETACH DELETE u
RETURN count(*) AS deleted, collect(before)[0] AS before
