// @invalidates none
// @changes access_request:create
// @row { approval: ApprovalNode }
// An access request for $role in the tenant, or on the instance $resource:$instance of the
// tenant when $instance is set. Nothing is created when the instance is missing or lives in
// another tenant (the caller checked both before; this guards a concurrent change).
MATCH (c:ElementsConfig {env: $env, id: $config})
MATCH (t:Tenant {env: $env, key: $tenant})
MATCH (u:User {env: $env, key: $user})
OPTIONAL MATCH (i:Instance {env: $env, resource: $resource, key: $instance})
WITH c, t, u, i
WHERE $instance IS NULL OR i.tenant = t.key
CREATE (a:OperationApproval:InEnv {env: $env, id: $id, type: 'access_request', config_id: c.id, tenant: t.key,
                                   resource: $resource, resource_instance: $instance, role: $role,
                                   granted_role: null, access_expires_at: null, requesting_user_id: u.key,
                                   reason: $reason, cancel_reason: null, status: null, reviewer_user_id: null,
                                   reviewed_at: null, reviewer_comment: null, created_at: $nowIso, updated_at: $nowIso})
CREATE (a)-[:OF_CONFIG]->(c), (a)-[:IN_TENANT]->(t), (a)-[:REQUESTED_BY]->(u)
FOREACH (_ IN CASE WHEN i IS NULL THEN [] ELSE [1] END | CREATE (a)-[:ON_INSTANCE]->(i))
RETURN a {.*} AS approval
