// @row { type: string; from: string; to: string; props: Record<string, unknown> }
// The links between the records of environment $env that cypher/export/nodes.cypher exports, by
// the ids of their ends, each streamed as the driver pulls it: schema links (a resource's roles
// and relations, a relation's subject, a derivation's relation, role hierarchy), tenant
// membership, tuples, role assignments (with `expires_at`), group links, and an approval's
// config, tenant, requester, instance and reviewer; a condition set's resource and parent, a set
// rule's sets.
MATCH (a:InEnv {env: $env})
// The environment's own records, from its index (not a scan of every environment's by label).
USING INDEX a:InEnv(env)
MATCH (a)-[r:HAS_ROLE|HAS_TENANT_ROLE|IN_TENANT|RELATED|GROUPS|EXTENDS|HAS_RELATION|SUBJECT|DERIVES|OF_CONFIG|REQUESTED_BY|ON_INSTANCE|REVIEWED_BY|OF_RESOURCE|NARROWS|USER_SET|RESOURCE_SET]->(b)
WHERE b.env = $env
  AND (a:Resource OR a:ResourceRole OR a:Relation OR a:Derivation OR a:Role OR a:Tenant OR a:User OR a:Instance
       OR a:ElementsConfig OR a:OperationApproval OR a:ConditionSet OR a:SetRule)
  // The far end by what it is not (a positive list would be planned as a scan of each label, joined).
  AND NOT (b:Session OR b:LoginCode OR b:WebhookDelivery OR b:AuditEvent OR b:DecisionLogBatch)
RETURN type(r) AS type, a.id AS from, b.id AS to, properties(r) AS props
