// @row { total: number; data: string[] }
// Groups $group was assigned into.
MATCH (:Group {env: $env, key: $group})-[:RELATED {relation: 'group'}]->(p:Group)
WITH DISTINCT p ORDER BY p.created_at, p.key
WITH collect(p.key) AS keys
RETURN size(keys) AS total, keys[$skip..($skip + $limit)] AS data
