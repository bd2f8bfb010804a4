// @invalidates $env
// @changes group_resource:delete
// @row { removed: number }
MATCH (g:Group {env: $env, key: $group})-[x:GROUPS]->(i:Instance {env: $env, resource: $resource, key: $instance})
DELETE x
RETURN count(*) AS removed
