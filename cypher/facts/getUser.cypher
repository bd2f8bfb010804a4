CALL {
  MATCH (u:User {env: $env, key: $ref}) RETURN u
  UNION
  MATCH (u:User {id: $ref}) WHERE u.env = $env RETURN u
}
WITH u LIMIT 1
RETURN u {.*} AS user,
       [(u)-[r:HAS_TENANT_ROLE]->(t:Tenant) | {role: r.role, tenant: t.key}] AS roles,
       [(u)-[:IN_TENANT]->(t:Tenant) | t.key] AS tenants
