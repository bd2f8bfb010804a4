// @row { idx: number; tenantExists: boolean; resourceExists: boolean; existingTenant: string | null }
// What each instance {key, tenant, resource} of $items refers to; one row per item, in order.
UNWIND range(0, size($items) - 1) AS idx
WITH idx, $items[idx] AS x
OPTIONAL MATCH (i:Instance {env: $env, resource: x.resource, key: x.key})
RETURN idx,
       EXISTS { MATCH (:Tenant {env: $env, key: x.tenant}) } AS tenantExists,
       EXISTS { MATCH (:Resource {env: $env, key: x.resource}) } AS resourceExists,
       i.tenant AS existingTenant
ORDER BY idx
