// @invalidates $env
// @changes role_assignment:create
// @row { written: number; renewed: number; id: string | null; created_at: string | null; tenant: string | null; members: { user: string; tenant: string }[] }
// Tenant role assignments of $items {user, role, tenant, expires_at? (epoch ms)}, one pass, as assignInstanceRoles: an
// item is written only when its user, tenant and tenant role exist; `written` counts them,
// `renewed` the expired ones made again; `members` the pairs whose user is not yet in the tenant.
CALL () {
  // `key IS NOT NULL` (always true): an index seek on the environment's roles, not a scan of every environment's.
  MATCH (role:Role {env: $env}) WHERE role.key IS NOT NULL
  RETURN collect(role.key) AS tenantRoles
}
UNWIND $items AS a
MATCH (u:User {env: $env, key: a.user})
MATCH (t:Tenant {env: $env, key: a.tenant})
WHERE a.role IN tenantRoles
WITH *, toInteger(a.expires_at) AS expiresAt
MERGE (u)-[r:HAS_TENANT_ROLE {role: a.role}]->(t)
  ON CREATE SET r.id = randomUUID(), r.created_at = $nowIso, r.expires_at = expiresAt
// #include fragments/renewExpiredGrant
WITH count(r) AS written, count(CASE WHEN renewed THEN 1 END) AS renewed, head(collect(r.id)) AS id, head(collect(r.created_at)) AS created_at,
     head(collect(t.key)) AS tenant, collect(DISTINCT [u, t]) AS pairs
CALL (pairs) {
  UNWIND pairs AS pair
  WITH pair[0] AS u, pair[1] AS t
  WHERE NOT EXISTS { (u)-[:IN_TENANT]->(t) }
  RETURN collect({user: u.key, tenant: t.key}) AS members
}
RETURN written, renewed, id, created_at, tenant, members
