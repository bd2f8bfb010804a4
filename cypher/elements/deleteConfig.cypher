// @invalidates none
// The config's operation approvals go with it; grants made by approvals stay (they are role assignments).
MATCH (c:ElementsConfig {env: $env, id: $id})
CALL {
  WITH c
  MATCH (a:OperationApproval)-[:OF_CONFIG]->(c)
  DETACH DELETE a
}
DETACH DELETE c
RETURN count(*) AS deleted
