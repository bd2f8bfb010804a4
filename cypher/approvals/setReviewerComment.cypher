// @invalidates none
// @changes operation_approval:update
// @row { approval: ApprovalNode }
MATCH (a:OperationApproval {id: $id})
WHERE a.env = $env AND a.config_id = $config AND a.tenant = $tenant
SET a.reviewer_comment = CASE WHEN $setComment THEN $comment ELSE a.reviewer_comment END,
    a.updated_at = CASE WHEN $setComment THEN $nowIso ELSE a.updated_at END
RETURN a {.*} AS approval
