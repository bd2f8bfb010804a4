// @row { total: number; data: (ApprovalNode & { config_key: string | null })[] }
// One page of the environment's operation approvals and access requests across every elements
// config and session, for the admin console's queue: pending first, then newest first. $config
// (id or key), $type (operation_approval or access_request; null: both) and $status narrow it; a
// null status is pending.
MATCH (a:OperationApproval {env: $env})
WHERE $type IS NULL OR coalesce(a.type, 'operation_approval') = $type
OPTIONAL MATCH (c:ElementsConfig {env: $env, id: a.config_id})
WITH a, c
WHERE ($config IS NULL OR c.id = $config OR c.key = $config)
  AND ($status IS NULL OR ($status = 'pending' AND a.status IS NULL) OR a.status = $status)
WITH a, c ORDER BY CASE WHEN a.status IS NULL THEN 0 ELSE 1 END, a.created_at DESC, a.id DESC
WITH collect(a {.*, config_key: c.key}) AS items
RETURN size(items) AS total, items[$skip..($skip + $limit)] AS data
