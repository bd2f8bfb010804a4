// @invalidates none
MATCH (p:Project {id: $projectId})
MERGE (p)-[:HAS_ENV]->(e:Environment {project_id: p.id, key: $key})
  ON CREATE SET e.id = $id, e.name = $key, e.description = null, e.created_at = $now, e.updated_at = $now
// Like Permit, every environment starts with the tenant `default`.
MERGE (t:Tenant:InEnv {env: e.id, key: 'default'})
  ON CREATE SET t.id = randomUUID(), t.name = 'Default Tenant', t.description = null,
                t.attributes_json = '{}', t.created_at = $now, t.updated_at = $now
RETURN e {.*} AS environment
