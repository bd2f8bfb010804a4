// @invalidates $env
// Deletes at most $batch grant edges of environment $env whose `expires_at` (epoch ms) is at or
// before $now. Decisions already ignore them from that instant; deleting only tidies the graph,
// and moves the revision like any write. `deleted` < $batch: nothing left to delete (for now).
MATCH (holder:InEnv {env: $env})-[grant:HAS_ROLE|HAS_TENANT_ROLE|RELATED|GROUPS]->()
WHERE grant.expires_at <= $now
WITH grant LIMIT $batch
DELETE grant
RETURN count(*) AS deleted
