// @invalidates $env
// Instances of $items (checked by the domain); existing ones are left as they are.
UNWIND $items AS inst
MATCH (tenant:Tenant {env: $env, key: inst.tenant})
// #include fragments/ensureInstance
RETURN count(CASE WHEN madeInstance THEN 1 END) AS created
