// @invalidates none
// Removes the environment, its keys and everything stored in it.
MATCH (:Project {id: $projectId})-[:HAS_ENV]->(e:Environment)
WHERE e.id = $ref OR e.key = $ref
CALL {
  WITH e
  MATCH (n:InEnv {env: e.id})
  DETACH DELETE n
}
CALL {
  WITH e
  MATCH (k:ApiKey {env_id: e.id})
  DETACH DELETE k
}
DETACH DELETE e
RETURN count(*) AS deleted
