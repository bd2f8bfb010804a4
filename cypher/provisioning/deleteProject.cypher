// @invalidates none
// @changes none
// @row { deleted: number }
// Removes the project, its environments, their keys, their change events (ChangeSet, not InEnv)
// and everything stored in them.
OPTIONAL MATCH (byKey:Project {key: $ref})
OPTIONAL MATCH (byId:Project {id: $ref})
// #include fragments/keyElseId
WITH referenced AS p WHERE p IS NOT NULL
OPTIONAL MATCH (p)-[:HAS_ENV]->(e:Environment)
WITH p, collect(e) AS envs, [e IN collect(e) | e.id] AS envIds
CALL (envIds) {
  MATCH (n:InEnv) WHERE n.env IN envIds
  DETACH DELETE n
}
CALL (envIds) {
  MATCH (s:ChangeSet) WHERE s.env IN envIds
  DELETE s
}
CALL (envIds) {
  MATCH (k:ApiKey) WHERE k.env_id IN envIds
  DETACH DELETE k
}
FOREACH (e IN envs | DETACH DELETE e)
DETACH DELETE p
RETURN count(*) AS deleted
