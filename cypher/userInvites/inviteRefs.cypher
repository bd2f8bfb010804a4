// @row { tenant: string | null; role: string | null; roleResource: string | null; instance: string | null; instanceResource: string | null; instanceTenant: string | null }
// What an invite's ids name in environment $env: the tenant ($tenantId), the role ($roleId: a tenant
// role, or a resource role), the instance ($instanceId, may be null); each null when not found.
OPTIONAL MATCH (t:Tenant {id: $tenantId}) WHERE t.env = $env
OPTIONAL MATCH (r:Role {id: $roleId}) WHERE r.env = $env
OPTIONAL MATCH (rr:ResourceRole {id: $roleId}) WHERE rr.env = $env
OPTIONAL MATCH (i:Instance {id: $instanceId}) WHERE i.env = $env
RETURN t.key AS tenant, coalesce(r.key, rr.key) AS role, rr.resource AS roleResource,
       i.key AS instance, i.resource AS instanceResource, i.tenant AS instanceTenant
