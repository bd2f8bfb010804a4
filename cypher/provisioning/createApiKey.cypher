// @invalidates none
// @changes api_key:create audit
// @row { key: ApiKeyNode }
MATCH (e:Environment {id: $envId})
CREATE (e)-[:HAS_KEY]->(k:ApiKey {id: $id, hash: $hash, prefix: $prefix, name: $name, access_level: $accessLevel,
                                   env_id: e.id, project_id: e.project_id, created_at: $nowIso})
RETURN k {.id, .name, .prefix, .access_level, .env_id, .project_id, .created_at} AS key
