// @invalidates none
// Removes the project, its environments, their keys and everything stored in them.
MATCH (p:Project)
WHERE p.id = $ref OR p.key = $ref
OPTIONAL MATCH (p)-[:HAS_ENV]->(e:Environment)
WITH p, collect(e) AS envs, [e IN collect(e) | e.id] AS envIds
CALL {
  WITH envIds
  MATCH (n:InEnv) WHERE n.env IN envIds
  DETACH DELETE n
}
CALL {
  WITH envIds
  MATCH (k:ApiKey) WHERE k.env_id IN envIds
  DETACH DELETE k
}
FOREACH (e IN envs | DETACH DELETE e)
DETACH DELETE p
RETURN count(*) AS deleted
