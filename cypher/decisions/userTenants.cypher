// @row { key: string; attributes_json: string | null }
// The tenants a user belongs to (docs/behaviour.md section 3): added to it, or holding a tenant role or an
// instance role there. Each once, by key.
MATCH (u:User {env: $env, key: $user})
CALL (u) {
  MATCH (u)-[:IN_TENANT|HAS_TENANT_ROLE]->(t:Tenant {env: $env})
  RETURN t
  UNION
  WITH u
  MATCH (u)-[h:HAS_ROLE]->(:Instance {env: $env})
  MATCH (t:Tenant {env: $env, key: h.tenant})
  RETURN t
}
WITH DISTINCT t
RETURN t.key AS key, t.attributes_json AS attributes_json
ORDER BY key
