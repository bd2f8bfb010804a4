// @invalidates none
// @changes elements_config:delete
// @row { deleted: number; before: ElementsConfigNode | null }
// The config's operation approvals and access requests go with it, and so do their undelivered
// webhook events; grants made by approvals stay (they are role assignments).
MATCH (c:ElementsConfig {env: $env, id: $id})
WITH c, c {.*} AS before
CALL (c) {
  MATCH (a:OperationApproval)-[:OF_CONFIG]->(c)
  DETACH DELETE a
}
CALL (c) {
  MATCH (d:WebhookDelivery {env: $env, config_id: c.id})
  DELETE d
}
DETACH DELETE c
RETURN count(*) AS deleted, collect(before)[0] AS before
