// @invalidates none
// @changes operation_approval:create
// @row { approval: ApprovalNode }
// $createdInstance: the instance was made for this approval (it named none); a cancel or deny removes it again (transition).
MATCH (c:ElementsConfig {env: $env, id: $config})
MATCH (t:Tenant {env: $env, key: $tenant})
MATCH (u:User {env: $env, key: $user})
MATCH (i:Instance {env: $env, resource: $resource, key: $instance})
CREATE (a:OperationApproval:InEnv {env: $env, id: $id, type: 'operation_approval', config_id: c.id, tenant: t.key, resource: i.resource,
                                   resource_instance: i.key, requesting_user_id: u.key, reason: $reason,
                                   cancel_reason: null, status: null, reviewer_user_id: null, reviewed_at: null,
                                   reviewer_comment: null, created_instance: $createdInstance, created_at: $nowIso, updated_at: $nowIso})
CREATE (a)-[:OF_CONFIG]->(c), (a)-[:IN_TENANT]->(t), (a)-[:REQUESTED_BY]->(u), (a)-[:ON_INSTANCE]->(i)
RETURN a {.*} AS approval
