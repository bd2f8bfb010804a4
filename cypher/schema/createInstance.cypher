// @invalidates $env
// @changes resource_instance:create
// @row { made: boolean; instance: InstanceNode }
// One new instance; `made` is false when $resource:$key exists already (the caller answers 409).
MATCH (tenant:Tenant {env: $env, key: $tenant})
MATCH (r:Resource {env: $env, key: $resource})
WITH {resource: r.key, key: $key, attributes: $attributes} AS inst, tenant, r
// #include fragments/ensureInstance
RETURN madeInstance AS made, i {.*, resource_id: r.id, tenant_id: tenant.id} AS instance
