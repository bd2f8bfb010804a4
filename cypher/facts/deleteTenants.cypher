// @invalidates $env
// @changes tenant:delete
// @row { missing: string[]; deleted: number; changed: { before: TenantNode }[] }
// Permit's bulk delete (DELETE bulk/tenants): the tenants named by $refs (key, else id) and
// everything that lives in them, as deleteTenant. `missing` lists refs that name no tenant;
// `changed` each deleted tenant's stored state, read before the delete (src/areas/changes/capture.ts).
UNWIND $refs AS ref
OPTIONAL MATCH (byKey:Tenant {env: $env, key: ref})
OPTIONAL MATCH (byId:Tenant {id: ref}) WHERE byId.env = $env
WITH ref, coalesce(byKey, byId) AS t
WITH collect(CASE WHEN t IS NULL THEN ref END) AS missing, collect(DISTINCT t) AS tenants
CALL (missing, tenants) {
  WITH tenants WHERE size(missing) = 0
  UNWIND tenants AS t
  WITH t, t {.*} AS before
  CALL (t) {
    MATCH (n:InEnv {env: $env}) WHERE n.tenant = t.key
    DETACH DELETE n
  }
  DETACH DELETE t
  RETURN count(*) AS deleted, collect({before: before}) AS changed
}
RETURN missing, deleted, changed
