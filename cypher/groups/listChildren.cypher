// @row { total: number; data: string[] }
// Groups assigned into $group (its direct members that are groups).
MATCH (c:Group)-[:RELATED {relation: 'group'}]->(:Group {env: $env, key: $group})
WITH DISTINCT c ORDER BY c.created_at, c.key
WITH collect(c.key) AS keys
RETURN size(keys) AS total, keys[$skip..($skip + $limit)] AS data
