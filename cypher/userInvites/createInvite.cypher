// @invalidates none
// @changes user_invite:create
// @row { invite: UserInviteNode }
// A pending invite of environment $env (its ids checked by the caller in this transaction).
CREATE (i:UserInvite:InEnv {env: $env, id: $id, key: $key, email: $email, first_name: $firstName, last_name: $lastName,
                            role_id: $roleId, tenant_id: $tenantId, resource_instance_id: $instanceId, status: 'pending',
                            created_at: $nowIso, updated_at: $nowIso})
RETURN i {.*} AS invite
