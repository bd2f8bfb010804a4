MATCH (p:Project {id: $projectId})
MERGE (p)-[:HAS_ENV]->(e:Environment {project_id: p.id, key: $key})
  ON CREATE SET e.id = $id, e.name = $key, e.description = null, e.created_at = $now, e.updated_at = $now
RETURN e {.*} AS environment
