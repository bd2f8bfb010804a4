// @invalidates $env
// Groups of $items (checked by the domain): their types (a resource with the role `member`)
// are made if missing, then the groups, in their tenants.
CALL {
  UNWIND $types AS type
  MERGE (r:Resource {env: $env, key: type})
    ON CREATE SET r:InEnv, r.id = randomUUID(), r.name = type, r.description = null, r.actions = [],
                  r.actions_json = '{}', r.created_at = $now, r.updated_at = $now
  MERGE (m:ResourceRole {env: $env, resource: type, key: 'member'})
    ON CREATE SET m:InEnv, m.id = randomUUID(), m.name = 'member', m.description = null, m.permissions = [],
                  m.created_at = $now, m.updated_at = $now
  MERGE (r)-[:HAS_ROLE]->(m)
}
UNWIND $items AS x
MATCH (t:Tenant {env: $env, key: x.tenant})
CREATE (g:Group:Instance:InEnv {env: $env, resource: x.type, key: x.key, tenant: t.key, id: randomUUID(), name: x.name,
                                description: x.description, attributes_json: x.attributes, created_at: $now, updated_at: $now})
CREATE (g)-[:IN_TENANT]->(t)
RETURN count(g) AS created
