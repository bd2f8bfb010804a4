// @invalidates $env
// @changes group:create
// @row { created: number }
// Groups of $items (checked by the domain): their types (a resource with the role `member`)
// are made if missing, then the groups, in their tenants.
CALL () {
  UNWIND $types AS type
  MERGE (r:Resource {env: $env, key: type})
    ON CREATE SET r:InEnv, r.id = randomUUID(), r.name = type, r.description = null, r.actions = [],
                  r.actions_json = '{}', r.created_at = $nowIso, r.updated_at = $nowIso
  MERGE (m:ResourceRole {env: $env, resource: type, key: 'member'})
    ON CREATE SET m:InEnv, m.id = randomUUID(), m.name = 'member', m.description = null, m.permissions = [],
                  m.created_at = $nowIso, m.updated_at = $nowIso
  MERGE (r)-[:HAS_ROLE]->(m)
}
UNWIND $items AS x
MATCH (tenant:Tenant {env: $env, key: x.tenant})
WITH x, tenant, {resource: x.type, key: x.key, attributes: x.attributes} AS inst
// #include fragments/ensureInstance
FOREACH (_ IN CASE WHEN madeInstance THEN [1] ELSE [] END | SET i:Group, i.name = x.name, i.description = x.description)
RETURN count(CASE WHEN madeInstance THEN 1 END) AS created
