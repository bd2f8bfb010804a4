// @invalidates $env
// @changes operation_approval:update
// @row { won: boolean; instanceGone: boolean; roleGone: boolean; approval: ApprovalNode }
// Moves a pending approval or access request to $status (approved, deny, cancel), atomically:
// the first SET takes the node's write lock, and only then is the status read, so of concurrent
// transitions exactly one sees null and wins; the others return won = false and change nothing.
// An approval grants the requester $grantRole in the same transaction: on the request's instance
// (HAS_ROLE) or, when it has none, in its tenant (HAS_TENANT_ROLE). The grant carries
// $expiresAt (ISO 8601, null: forever) on the approval; the edge carries it as $expiresAtMs (epoch ms,
// the rule's convention); an existing edge keeps the longer of the two lifetimes.
// A request on an instance that has been deleted since (`instanceGone`) is not approved with a
// grant: that grant would fall back to the whole tenant. It stays pending (won = false); it can
// still be denied or cancelled.
// The granted role is locked and looked up in this transaction too: a resource role of the
// request's resource or a tenant role on an instance, a tenant role tenant-wide. Role deletions
// lock the role before they remove its assignments, so a deletion either commits first (the
// role is missing here: `roleGone`, nothing changes), or commits while this waits for the lock
// (the lock fails on the deleted node: the transaction fails, nothing changes, a retry finds
// the role gone), or waits for this commit and then removes the grant written here: no grant of
// a deleted key is left behind.
// An operation approval that named no instance made one (`created_instance`): a cancel or deny
// removes it again here, unless something else has come to use it meanwhile (another request,
// a role assignment, a relation): an end user leaves no instances behind by asking.
MATCH (a:OperationApproval {id: $id})
WHERE a.env = $env AND a.config_id = $config AND a.tenant = $tenant
// An approval writes its requester's node (the grant): that node's lock is taken first, as a new
// request of the same user takes it first (lockRequesterRecentRequests.cypher). Taken later, an
// approval holding this request's other locks and a request holding the user waited on each
// other (a deadlock, seen under the soak with one requester).
CALL (a) {
  WITH a WHERE $status = 'approved'
  MATCH (a)-[:REQUESTED_BY]->(requester:User)
  SET requester._lock = true
  REMOVE requester._lock
}
SET a._lock = true
WITH a, a.resource_instance IS NOT NULL AND NOT EXISTS { (a)-[:ON_INSTANCE]->(:Instance) } AS instanceGone
CALL (a) {
  OPTIONAL MATCH (resourceRole:ResourceRole {env: $env, resource: a.resource, key: $grantRole})
  WHERE $status = 'approved' AND a.resource_instance IS NOT NULL
  OPTIONAL MATCH (tenantRole:Role {env: $env, key: $grantRole})
  WHERE $status = 'approved'
  SET resourceRole._lock = true, tenantRole._lock = true
  REMOVE resourceRole._lock, tenantRole._lock
  RETURN $status = 'approved' AND $grantRole IS NOT NULL AND resourceRole IS NULL AND tenantRole IS NULL AS roleGone
}
WITH a, instanceGone, roleGone,
     a.status IS NULL AND NOT ($status = 'approved' AND $grantRole IS NOT NULL AND (instanceGone OR roleGone)) AS won
CALL (a, won) {
  WITH a, won WHERE won
  SET a.status = $status,
      a.reviewer_user_id = $reviewer,
      a.reviewed_at = CASE WHEN $reviewer IS NULL THEN null ELSE $nowIso END,
      a.reviewer_comment = CASE WHEN $setComment THEN $comment ELSE a.reviewer_comment END,
      a.cancel_reason = CASE WHEN $status = 'cancel' THEN $cancelReason ELSE a.cancel_reason END,
      a.updated_at = $nowIso
  WITH a
  CALL (a) {
    WITH a WHERE $status IN ['cancel', 'deny'] AND a.created_instance = true
    MATCH (a)-[:ON_INSTANCE]->(i:Instance)
    WHERE NOT EXISTS { MATCH (i)-[r]-(x) WHERE x <> a AND type(r) <> 'IN_TENANT' }
    DETACH DELETE i
  }
  CALL (a) {
    WITH a WHERE $reviewer IS NOT NULL
    MATCH (r:User {env: $env, key: $reviewer})
    MERGE (a)-[:REVIEWED_BY]->(r)
  }
  CALL (a) {
    WITH a WHERE $status = 'approved' AND $grantRole IS NOT NULL
    MATCH (a)-[:REQUESTED_BY]->(u:User), (a)-[:IN_TENANT]->(t:Tenant)
    OPTIONAL MATCH (a)-[:ON_INSTANCE]->(i:Instance)
    SET a.granted_role = $grantRole, a.access_expires_at = $expiresAt
    WITH u, t, i
    // #include fragments/joinTenant
    WITH u, t, i
    CALL (u, t, i) {
      WITH u, t, i WHERE i IS NOT NULL
      MERGE (u)-[h:HAS_ROLE {role: $grantRole}]->(i)
        ON CREATE SET h.id = randomUUID(), h.tenant = t.key, h.created_at = $nowIso, h.expires_at = $expiresAtMs
        ON MATCH SET h.id = coalesce(h.id, randomUUID()), h.expires_at = CASE WHEN h.expires_at IS NULL OR $expiresAtMs IS NULL THEN null
                                         WHEN h.expires_at > $expiresAtMs THEN h.expires_at ELSE $expiresAtMs END
    }
    CALL (u, t, i) {
      WITH u, t, i WHERE i IS NULL
      MERGE (u)-[h:HAS_TENANT_ROLE {role: $grantRole}]->(t)
        ON CREATE SET h.id = randomUUID(), h.created_at = $nowIso, h.expires_at = $expiresAtMs
        ON MATCH SET h.id = coalesce(h.id, randomUUID()), h.expires_at = CASE WHEN h.expires_at IS NULL OR $expiresAtMs IS NULL THEN null
                                         WHEN h.expires_at > $expiresAtMs THEN h.expires_at ELSE $expiresAtMs END
    }
  }
}
REMOVE a._lock
RETURN won, instanceGone, roleGone, a {.*} AS approval
