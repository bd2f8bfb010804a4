// @invalidates none
// @changes none
// @row { deleted: number }
// Removes up to $batch records (with their links) staged by import $importId in environment $env
// (the labels an export holds; its audit events and decision logs stay):
// the caller repeats it until fewer are deleted, each in a transaction of its own.
MATCH (e:Environment {id: $env}) WHERE e.import_id = $importId
MATCH (n:InEnv {env: $env})
WHERE (n:Resource OR n:ResourceRole OR n:Relation OR n:Derivation OR n:Role OR n:Tenant OR n:User OR n:Instance
       OR n:ElementsConfig OR n:OperationApproval)
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
