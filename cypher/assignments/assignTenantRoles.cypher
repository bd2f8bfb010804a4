// @invalidates $env
// Tenant role assignments of $items {user, role, tenant, expires_at? (epoch ms)}, one pass, as assignInstanceRoles: an
// item is written only when its user, tenant and tenant role exist; `written` counts them,
// `renewed` the expired ones made again.
CALL () {
  // `key IS NOT NULL` (always true): an index seek on the environment's roles, not a scan of every environment's.
  MATCH (role:Role {env: $env}) WHERE role.key IS NOT NULL
  RETURN collect(role.key) AS tenantRoles
}
UNWIND $items AS a
MATCH (u:User {env: $env, key: a.user})
MATCH (t:Tenant {env: $env, key: a.tenant})
WHERE a.role IN tenantRoles
MERGE (u)-[r:HAS_TENANT_ROLE {role: a.role}]->(t)
  ON CREATE SET r.created_at = $now, r.expires_at = toInteger(a.expires_at)
  // An edge past its expires_at grants nothing and is gone for the API (CONTRACT section 11), though
  // the sweep may not have deleted it yet: it is made again, as new ($nowMs: now, epoch ms).
  ON MATCH SET r._renewed = CASE WHEN r.expires_at <= $nowMs THEN true END,
               r.created_at = CASE WHEN r.expires_at <= $nowMs THEN $now ELSE r.created_at END,
               r.expires_at = CASE WHEN r.expires_at <= $nowMs THEN toInteger(a.expires_at) ELSE r.expires_at END
WITH u, t, r, r._renewed IS NOT NULL AS renewed
FOREACH (_ IN CASE WHEN renewed THEN [1] ELSE [] END | REMOVE r._renewed)
RETURN count(r) AS written, count(CASE WHEN renewed THEN 1 END) AS renewed, head(collect(elementId(r))) AS id, head(collect(r.created_at)) AS created_at,
       head(collect(t.key)) AS tenant, collect(DISTINCT {user: u.key, tenant: t.key}) AS members
