// @invalidates $env
// Moves a pending approval to $status (approved, deny, cancel), atomically: the first SET takes
// the node's write lock, and only then is the status read, so of concurrent transitions exactly
// one sees null and wins; the others return won = false and change nothing. An approval also
// grants the requester _Approved_ on the instance, in the same transaction.
MATCH (a:OperationApproval {id: $id})
WHERE a.env = $env AND a.config_id = $config AND a.tenant = $tenant
SET a._lock = true
WITH a, a.status IS NULL AS won
CALL {
  WITH a, won
  WITH a, won WHERE won
  SET a.status = $status,
      a.reviewer_user_id = $reviewer,
      a.reviewed_at = CASE WHEN $reviewer IS NULL THEN null ELSE $now END,
      a.reviewer_comment = CASE WHEN $setComment THEN $comment ELSE a.reviewer_comment END,
      a.cancel_reason = CASE WHEN $status = 'cancel' THEN $cancelReason ELSE a.cancel_reason END,
      a.updated_at = $now
  WITH a
  CALL {
    WITH a
    WITH a WHERE $reviewer IS NOT NULL
    MATCH (r:User {env: $env, key: $reviewer})
    MERGE (a)-[:REVIEWED_BY]->(r)
  }
  CALL {
    WITH a
    WITH a WHERE $status = 'approved'
    MATCH (a)-[:REQUESTED_BY]->(u:User), (a)-[:ON_INSTANCE]->(i:Instance), (a)-[:IN_TENANT]->(t:Tenant)
    MERGE (u)-[h:HAS_ROLE {role: '_Approved_'}]->(i)
      ON CREATE SET h.tenant = t.key, h.created_at = $now
    MERGE (u)-[:IN_TENANT]->(t)
  }
}
REMOVE a._lock
RETURN won, a {.*} AS approval
