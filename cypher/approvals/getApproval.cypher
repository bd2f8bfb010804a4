// @row { approval: ApprovalNode }
MATCH (a:OperationApproval {id: $id})
WHERE a.env = $env AND a.config_id = $config AND a.tenant = $tenant
RETURN a {.*} AS approval
