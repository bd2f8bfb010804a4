// @invalidates $env
// @changes tenant_user:delete
// @row { removed: number }
// The user leaves the tenant: the link and every role held in that tenant go.
MATCH (u:User {env: $env, key: $key})-[m:IN_TENANT]->(t:Tenant {env: $env, key: $tenant})
CALL (u, t) {
  MATCH (u)-[r:HAS_TENANT_ROLE]->(t) DELETE r
}
CALL (u, t) {
  MATCH (u)-[r:HAS_ROLE]->(i:Instance) WHERE i.tenant = t.key DELETE r
}
DELETE m
RETURN count(*) AS removed
