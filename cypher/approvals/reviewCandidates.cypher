// @row { resource: string; instance: string }
// Instances of the approvals (matching the filters) that the user did not request: the ones a
// non-LEVEL reviewer may still see when allowed `review` on them (a tenant-wide access request
// has no instance: only LEVEL reviewers review it).
MATCH (a:OperationApproval {env: $env, config_id: $config, tenant: $tenant})
WHERE a.requesting_user_id <> $user AND a.resource_instance IS NOT NULL
  AND ($status IS NULL OR ($status = 'pending' AND a.status IS NULL) OR a.status = $status)
  AND ($resource IS NULL OR a.resource = $resource)
  AND ($instance IS NULL OR a.resource_instance = $instance)
RETURN DISTINCT a.resource AS resource, a.resource_instance AS instance
