// @row { environment: EnvironmentNode }
OPTIONAL MATCH (:Project {id: $projectId})-[:HAS_ENV]->(byKey:Environment {key: $ref})
OPTIONAL MATCH (:Project {id: $projectId})-[:HAS_ENV]->(byId:Environment {id: $ref})
// #include fragments/keyElseId
WITH referenced AS e WHERE e IS NOT NULL
RETURN e {.*} AS environment
