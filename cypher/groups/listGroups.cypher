// @row { total: number; data: string[] }
// `key IS NOT NULL` (always true): an index seek on the environment's groups, not a scan of every environment's.
MATCH (g:Group {env: $env})
WHERE g.key IS NOT NULL AND ($tenant IS NULL OR g.tenant = $tenant)
  AND ($type IS NULL OR g.resource = $type)
  AND ($search IS NULL OR toLower(g.key) CONTAINS toLower($search) OR toLower(coalesce(g.name, '')) CONTAINS toLower($search))
WITH g ORDER BY g.created_at, g.key
WITH collect(g.key) AS keys
RETURN size(keys) AS total, keys[$skip..($skip + $limit)] AS data
