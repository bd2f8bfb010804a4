MATCH (:Project {id: $projectId})-[:HAS_ENV]->(e:Environment)
WHERE e.id = $ref OR e.key = $ref
RETURN e {.*} AS environment
