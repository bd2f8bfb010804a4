MATCH (t:Role {env: $env})
WHERE $search IS NULL OR toLower(t.key) CONTAINS toLower($search) OR toLower(coalesce(t.name, '')) CONTAINS toLower($search)
WITH t ORDER BY t.created_at, t.key
WITH collect(t) AS items
RETURN size(items) AS total, [t IN items[$skip..($skip + $limit)] | t {.*}] AS data
