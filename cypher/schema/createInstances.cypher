// @invalidates $env
// @changes resource_instance:create
// @row { created: number; written: number }
// Instances of $items {resource, key, tenant, attributes}, one pass, checking as it writes: an
// item is written when its tenant and resource exist; an instance that exists already is left as
// it is and counts as written when it is in the item's tenant. `written` short of size($items):
// the caller asks what each item refers to (schema/resolveInstances), explains the first failing
// item and rolls the transaction back.
UNWIND $items AS inst
MATCH (tenant:Tenant {env: $env, key: inst.tenant})
WHERE EXISTS { MATCH (:Resource {env: $env, key: inst.resource}) }
// #include fragments/ensureInstance
RETURN count(CASE WHEN madeInstance THEN 1 END) AS created, count(CASE WHEN i.tenant = tenant.key THEN 1 END) AS written
