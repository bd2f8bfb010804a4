// @invalidates $env
// @changes none
// @row { tenant: string }
// The instance an approval is about: found, or created in the tenant. Its tenant is returned so
// that the caller refuses an instance of another tenant (the transaction then writes nothing).
MATCH (tenant:Tenant {env: $env, key: $tenant})
MATCH (r:Resource {env: $env, key: $resource})
WITH {resource: r.key, key: $key} AS inst, tenant
// #include fragments/ensureInstance
RETURN i.tenant AS tenant
