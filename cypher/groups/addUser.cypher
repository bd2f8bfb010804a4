// @invalidates $env
// @changes group_member:create
// @row { added: number }
// Membership is the role `member` on the group instance; the user also joins the group's tenant.
// $expires_at (epoch ms, null: never): the membership grants nothing from then on.
MATCH (g:Group {env: $env, key: $group})
MATCH (u:User {env: $env, key: $user})
MATCH (t:Tenant {env: $env, key: g.tenant})
// The user's lock first (cypher/fragments/joinTenant.cypher says why).
SET u._lock = true
REMOVE u._lock
WITH g, u, t
MERGE (u)-[m:HAS_ROLE {role: 'member', tenant: g.tenant}]->(g)
  ON CREATE SET m.id = randomUUID(), m.created_at = $nowIso, m.expires_at = toInteger($expires_at)
  // An edge past its expires_at grants nothing and is gone for the API (docs/behaviour.md section 11), though
  // the sweep may not have deleted it yet: it is made again, as new ($nowMs: now, epoch ms). A live
  // one takes the $expires_at given (a later or earlier end); without one it keeps its own.
  ON MATCH SET m.id = CASE WHEN m.expires_at <= $nowMs OR m.id IS NULL THEN randomUUID() ELSE m.id END,
               m.created_at = CASE WHEN m.expires_at <= $nowMs THEN $nowIso ELSE m.created_at END,
               m.expires_at = CASE WHEN m.expires_at <= $nowMs OR $expires_at IS NOT NULL THEN toInteger($expires_at) ELSE m.expires_at END
WITH u, t
// #include fragments/joinTenant
RETURN count(*) AS added
