// @row { total: number; data: ApprovalItemNode[] }
// One page of a config's approvals in a tenant, newest first. $everything: the caller is a LEVEL
// reviewer; otherwise their own approvals plus those on $reviewable instances ("resource:key").
MATCH (a:OperationApproval {env: $env, config_id: $config, tenant: $tenant})
WHERE ($everything OR a.requesting_user_id = $user OR (a.resource + ':' + a.resource_instance) IN $reviewable)
  AND ($status IS NULL OR ($status = 'pending' AND a.status IS NULL) OR a.status = $status)
  AND ($resource IS NULL OR a.resource = $resource)
  AND ($instance IS NULL OR a.resource_instance = $instance)
WITH a ORDER BY a.created_at DESC, a.id DESC
WITH collect(a) AS items
WITH size(items) AS total, items[$skip..($skip + $limit)] AS page
CALL (page) {
  UNWIND page AS a
  OPTIONAL MATCH (a)-[:REQUESTED_BY]->(u:User)
  RETURN collect(a {.*, requesting_user_email: u.email, requesting_user_first_name: u.first_name,
                    requesting_user_last_name: u.last_name}) AS data
}
RETURN total, data
