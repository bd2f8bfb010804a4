// @row { total: number; data: UserNode[] }
MATCH (u:User)-[:HAS_ROLE {role: 'member'}]->(:Group {env: $env, key: $group})
WITH DISTINCT u ORDER BY u.key
WITH collect(u) AS items
RETURN size(items) AS total,
       [u IN items[$skip..($skip + $limit)] | u {.id, .key, .email, .first_name, .last_name, .attributes_json, .created_at, .updated_at}] AS data
