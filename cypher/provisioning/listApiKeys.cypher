// @row { total: number; data: ApiKeyNode[] }
MATCH (k:ApiKey {env_id: $envId})
WITH k ORDER BY k.created_at, k.id
WITH collect(k) AS items
RETURN size(items) AS total,
       [k IN items[$skip..($skip + $limit)] | k {.id, .name, .prefix, .access_level, .env_id, .project_id, .created_at}] AS data
