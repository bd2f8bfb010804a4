MATCH (p:Project {id: $projectId})
CREATE (p)-[:HAS_ENV]->(e:Environment {id: $id, project_id: p.id, key: $key, name: $name,
                                        description: $description, created_at: $now, updated_at: $now})
RETURN e {.*} AS environment
