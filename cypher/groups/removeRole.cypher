// @invalidates $env
// @changes group_role:delete
// @row { removed: number }
// Removes only the tuple; the relation and derivation are schema shared by other groups.
MATCH (g:Group {env: $env, key: $group})-[x:RELATED {relation: $relation}]->(i:Instance {env: $env, resource: $resource, key: $instance})
DELETE x
RETURN count(*) AS removed
