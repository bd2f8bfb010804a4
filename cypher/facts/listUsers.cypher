// @row { total: number; data: UserRow[] }
// `key IS NOT NULL` (always true): an index seek on the environment's entries, not a scan of every environment's.
MATCH (u:User {env: $env}) WHERE u.key IS NOT NULL
WITH * WHERE ($search IS NULL OR toLower(u.key) CONTAINS toLower($search) OR toLower(coalesce(u.email, '')) CONTAINS toLower($search))
  AND ($tenant IS NULL OR EXISTS { (u)-[:IN_TENANT]->(:Tenant {env: $env, key: $tenant}) })
  // Permit's `role`: users holding that tenant role (in the `tenant`, when one is given).
  AND ($role IS NULL OR EXISTS { (u)-[:HAS_TENANT_ROLE {role: $role}]->(rt:Tenant) WHERE $tenant IS NULL OR rt.key = $tenant })
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
