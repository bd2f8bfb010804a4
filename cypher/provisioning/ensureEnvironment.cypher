// @invalidates none
// @changes none
// @row { environment: EnvironmentNode }
MATCH (p:Project {id: $projectId})
MERGE (p)-[:HAS_ENV]->(e:Environment {project_id: p.id, key: $key})
  ON CREATE SET e.id = $id, e.name = $key, e.description = null, e.created_at = $nowIso, e.updated_at = $nowIso
// Like Permit, every environment starts with the tenant `default`.
MERGE (t:Tenant:InEnv {env: e.id, key: 'default'})
  ON CREATE SET t.id = randomUUID(), t.name = 'Default Tenant', t.description = null,
                t.attributes_json = '{}', t.created_at = $nowIso, t.updated_at = $nowIso
WITH e
// #include fragments/environmentKey
RETURN e {.*} AS environment
