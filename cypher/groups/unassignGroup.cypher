// @invalidates $env
// @changes group_nesting:delete
// @row { removed: number }
MATCH (a:Group {env: $env, key: $a})-[x:RELATED {relation: 'group'}]->(b:Group {env: $env, key: $b})
DELETE x
RETURN count(*) AS removed
