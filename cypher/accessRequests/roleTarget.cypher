// @row { tenant_role: boolean; resource_role: boolean; instance_tenant: string | null }
// What an access request for $role may be about: whether $role is a tenant role, whether it is
// a resource role of $resource, and the tenant of the instance $resource:$instance (null: none).
OPTIONAL MATCH (i:Instance {env: $env, resource: $resource, key: $instance})
RETURN EXISTS { MATCH (:Role {env: $env, key: $role}) } AS tenant_role,
       EXISTS { MATCH (:ResourceRole {env: $env, resource: $resource, key: $role}) } AS resource_role,
       i.tenant AS instance_tenant
