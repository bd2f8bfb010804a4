// @invalidates $env
// @changes group_member:delete
// @row { removed: number }
MATCH (u:User {env: $env, key: $user})-[m:HAS_ROLE {role: 'member'}]->(g:Group {env: $env, key: $group})
DELETE m
RETURN count(*) AS removed
