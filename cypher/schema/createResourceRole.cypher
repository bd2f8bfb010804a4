// @invalidates $env
MATCH (r:Resource {env: $env, key: $resource})
CREATE (rr:ResourceRole:InEnv {env: $env, id: $id, resource: r.key, key: $key, name: $name, description: $description,
                               permissions: $permissions, created_at: $now, updated_at: $now})
CREATE (r)-[:HAS_ROLE]->(rr)
RETURN rr.key AS key
