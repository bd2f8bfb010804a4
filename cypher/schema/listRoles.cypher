// @row { total: number; data: RoleNode[] }
// `key IS NOT NULL` (always true): an index seek on the environment's entries, not a scan of every environment's.
MATCH (t:Role {env: $env}) WHERE t.key IS NOT NULL
WITH * WHERE $search IS NULL OR toLower(t.key) CONTAINS toLower($search) OR toLower(coalesce(t.name, '')) CONTAINS toLower($search)
WITH t ORDER BY t.created_at, t.key
WITH collect(t) AS items
RETURN size(items) AS total, [t IN items[$skip..($skip + $limit)] | t {.*}] AS data
