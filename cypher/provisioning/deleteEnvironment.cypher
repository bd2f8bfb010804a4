// @invalidates none
// @changes none
// @row { deleted: number }
// Removes the environment, its keys, its change events (ChangeSet, not InEnv) and everything stored in it.
OPTIONAL MATCH (:Project {id: $projectId})-[:HAS_ENV]->(byKey:Environment {key: $ref})
OPTIONAL MATCH (:Project {id: $projectId})-[:HAS_ENV]->(byId:Environment {id: $ref})
// #include fragments/keyElseId
WITH referenced AS e WHERE e IS NOT NULL
CALL (e) {
  MATCH (n:InEnv {env: e.id})
  DETACH DELETE n
}
CALL (e) {
  MATCH (s:ChangeSet {env: e.id})
  DELETE s
}
CALL (e) {
  MATCH (k:ApiKey {env_id: e.id})
  DETACH DELETE k
}
DETACH DELETE e
RETURN count(*) AS deleted
