// @row {
//   total: number;
//   data: { id: string; key: string; resource: string; tenant: string; attributes_json: string | null; attached_at: string }[];
// }
MATCH (:Group {env: $env, key: $group})-[x:GROUPS]->(i:Instance)
WITH i, x ORDER BY i.resource, i.key
WITH collect(i {.id, .key, .resource, .tenant, .attributes_json, attached_at: x.created_at}) AS items
RETURN size(items) AS total, items[$skip..($skip + $limit)] AS data
