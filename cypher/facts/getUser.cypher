// @row UserRow
// By the reference rule (key, else id).
OPTIONAL MATCH (byKey:User {env: $env, key: $ref})
OPTIONAL MATCH (byId:User {id: $ref}) WHERE byId.env = $env
// #include fragments/keyElseId
WITH referenced AS u WHERE u IS NOT NULL
RETURN u {.*} AS user,
       [(u)-[r:HAS_TENANT_ROLE]->(t:Tenant) | {role: r.role, tenant: t.key}] AS roles,
       [(u)-[:IN_TENANT]->(t:Tenant) | t.key] AS tenants
