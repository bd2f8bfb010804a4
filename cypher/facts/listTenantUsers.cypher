// @row { total: number; data: UserRow[] }
// Permit's filters: `search` (key or email), `role` (users holding that tenant role in this tenant).
MATCH (u:User)-[:IN_TENANT]->(:Tenant {env: $env, key: $tenant})
WITH * WHERE ($search IS NULL OR toLower(u.key) CONTAINS toLower($search) OR toLower(coalesce(u.email, '')) CONTAINS toLower($search))
  AND ($role IS NULL OR EXISTS { (u)-[:HAS_TENANT_ROLE {role: $role}]->(:Tenant {env: $env, key: $tenant}) })
WITH u ORDER BY u.created_at, u.key
WITH collect(u) AS items
WITH size(items) AS total, items[$skip..($skip + $limit)] AS page
CALL (page) {
  UNWIND page AS u
  RETURN collect({
    user: u {.*},
    roles: [(u)-[r:HAS_TENANT_ROLE]->(t:Tenant) | {role: r.role, tenant: t.key}],
    tenants: [(u)-[:IN_TENANT]->(t:Tenant) | t.key]
  }) AS data
}
RETURN total, data
