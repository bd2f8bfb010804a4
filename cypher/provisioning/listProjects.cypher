// @row { total: number; data: ProjectNode[] }
MATCH (p:Project)
WITH p ORDER BY p.created_at, p.key
WITH collect(p) AS items
RETURN size(items) AS total, [p IN items[$skip..($skip + $limit)] | p {.*}] AS data
