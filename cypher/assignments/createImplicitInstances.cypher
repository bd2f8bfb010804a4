// @invalidates $env
// @changes none
// @row { instances: number }
// Instances named by tuples but missing (Permit's implicit creation), in the tuple's tenant.
UNWIND $items AS inst
MATCH (tenant:Tenant {env: $env, key: inst.tenant})
// #include fragments/ensureInstance
RETURN count(*) AS instances
