// @row { key: string; attributes_json: string | null }
// The tenants where a question could be allowed (all-tenants, docs/decisions.md): the instance's
// tenant when $key names a stored instance of $type; otherwise the tenants the user belongs to
// (added to it, or holding a tenant role or an instance role there) and, when $everyTenant (a set
// rule can grant the permission), every tenant of the environment. Each once, by key.
OPTIONAL MATCH (instance:Instance {env: $env, resource: $type, key: $key})
CALL (instance) {
  WITH instance WHERE instance IS NOT NULL
  MATCH (t:Tenant {env: $env, key: instance.tenant})
  RETURN t
  UNION
  WITH instance WHERE instance IS NULL
  MATCH (u:User {env: $env, key: $user})-[:IN_TENANT|HAS_TENANT_ROLE]->(t:Tenant {env: $env})
  RETURN t
  UNION
  WITH instance WHERE instance IS NULL
  MATCH (:User {env: $env, key: $user})-[h:HAS_ROLE]->(:Instance {env: $env})
  MATCH (t:Tenant {env: $env, key: h.tenant})
  RETURN t
  UNION
  WITH instance WHERE instance IS NULL AND $everyTenant
  MATCH (t:Tenant {env: $env})
  RETURN t
}
WITH DISTINCT t
RETURN t.key AS key, t.attributes_json AS attributes_json
ORDER BY key
