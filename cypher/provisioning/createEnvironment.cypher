// @invalidates none
// @changes none
// @row { environment: EnvironmentNode }
MATCH (p:Project {id: $projectId})
CREATE (p)-[:HAS_ENV]->(e:Environment {id: $id, project_id: p.id, key: $key, name: $name,
                                        description: $description, created_at: $nowIso, updated_at: $nowIso})
// Like Permit, every environment starts with the tenant `default`.
MERGE (t:Tenant:InEnv {env: e.id, key: 'default'})
  ON CREATE SET t.id = randomUUID(), t.name = 'Default Tenant', t.description = null,
                t.attributes_json = '{}', t.created_at = $nowIso, t.updated_at = $nowIso
WITH e
// #include fragments/environmentKey
RETURN e {.*} AS environment
