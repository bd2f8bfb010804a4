// @invalidates none
// @changes none
// @row { deleted: number }
// Removes up to $batch records (with their links) staged by import $importId in environment $env
// (the records an export holds; its audit events and decision logs stay; a failed import ran
// while no session or webhook delivery could be made):
// the caller repeats it until fewer are deleted, each in a transaction of its own.
MATCH (e:Environment {id: $env}) WHERE e.import_id = $importId
MATCH (n:InEnv {env: $env})
USING INDEX n:InEnv(env)
WHERE NOT (n:Session OR n:LoginCode OR n:WebhookDelivery OR n:AuditEvent OR n:DecisionLogBatch)
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
