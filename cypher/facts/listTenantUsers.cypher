MATCH (u:User)-[:IN_TENANT]->(:Tenant {env: $env, key: $tenant})
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
