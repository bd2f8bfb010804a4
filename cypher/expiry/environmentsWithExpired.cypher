// @row { env: string }
// The environments that hold a grant edge (role assignment, tenant role, tuple, resource-group
// edge) whose `expires_at` (epoch ms) is at or before $nowMs: the expiry sweep's work list. It spans
// environments on purpose (the sweep serves them all) and returns only their ids; each is then
// swept by expiry/deleteExpired, scoped to one environment. At most $limit.
MATCH (holder:InEnv)-[grant:HAS_ROLE|HAS_TENANT_ROLE|RELATED|GROUPS]->()
WHERE grant.expires_at <= $nowMs
RETURN DISTINCT holder.env AS env
LIMIT $limit
