// @row { total: number; data: ElementsConfigNode[] }
MATCH (c:ElementsConfig {env: $env})
WITH c ORDER BY c.created_at, c.key
WITH collect(c) AS items
RETURN size(items) AS total, [c IN items[$skip..($skip + $limit)] | c {.*}] AS data
