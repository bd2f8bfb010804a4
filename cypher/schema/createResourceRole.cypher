// @invalidates $env
// @changes resource_role:create
// @row { key: string }
MATCH (r:Resource {env: $env, key: $resource})
CREATE (rr:ResourceRole:InEnv {env: $env, id: $id, resource: r.key, key: $key, name: $name, description: $description,
                               permissions: $permissions, created_at: $nowIso, updated_at: $nowIso})
CREATE (r)-[:HAS_ROLE]->(rr)
RETURN rr.key AS key
