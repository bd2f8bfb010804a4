// @invalidates $env
// @changes tenant:delete
// @row { deleted: number; before: TenantNode | null }
// Removes the tenant and everything that lives in it (instances, groups, approvals, sessions).
MATCH (t:Tenant {env: $env, key: $key})
WITH t, t {.*} AS before
CALL (t) {
  MATCH (n:InEnv {env: $env}) WHERE n.tenant = t.key
  DETACH DELETE n
}
DETACH DELETE t
RETURN count(*) AS deleted, collect(before)[0] AS before
