// @row { total: number; data: EnvironmentNode[] }
MATCH (:Project {id: $projectId})-[:HAS_ENV]->(e:Environment)
WITH e ORDER BY e.created_at, e.key
WITH collect(e) AS items
RETURN size(items) AS total, [e IN items[$skip..($skip + $limit)] | e {.*}] AS data
