// @invalidates $env
// @changes relation:create
// @row { key: string }
MATCH (r:Resource {env: $env, key: $resource})
MATCH (s:Resource {env: $env, key: $subject_resource})
CREATE (rel:Relation:InEnv {env: $env, id: $id, resource: r.key, key: $key, name: $name, description: $description,
                           subject_resource: s.key, created_at: $nowIso, updated_at: $nowIso})
CREATE (r)-[:HAS_RELATION]->(rel)
CREATE (rel)-[:SUBJECT]->(s)
RETURN rel.key AS key
