// @invalidates $env
// Membership is the role `member` on the group instance; the user also joins the group's tenant.
// $expires_at (epoch ms, null: never): the membership grants nothing from then on (set when made).
MATCH (g:Group {env: $env, key: $group})
MATCH (u:User {env: $env, key: $user})
MATCH (t:Tenant {env: $env, key: g.tenant})
MERGE (u)-[m:HAS_ROLE {role: 'member', tenant: g.tenant}]->(g)
  ON CREATE SET m.created_at = $now, m.expires_at = toInteger($expires_at)
MERGE (u)-[:IN_TENANT]->(t)
RETURN count(*) AS added
