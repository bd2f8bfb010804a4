// @invalidates $env
// Permit's bulk replace (PUT bulk/resource_instances), after the domain checked the batch with
// resolveInstances: each instance is created in its tenant, or has its attributes replaced.
// `changed` holds each instance's stored state before (null when created) and after
// (src/areas/changes/capture.ts).
UNWIND $items AS x
MATCH (t:Tenant {env: $env, key: x.tenant})
OPTIONAL MATCH (old:Instance {env: $env, resource: x.resource, key: x.key})
WITH x, t, old {.*} AS before
MERGE (i:Instance:InEnv {env: $env, resource: x.resource, key: x.key})
  ON CREATE SET i.id = randomUUID(), i.tenant = t.key, i.created_at = $now, i.fresh = true
SET i.attributes_json = x.attributes, i.updated_at = $now
MERGE (i)-[:IN_TENANT]->(t)
WITH i, before, coalesce(i.fresh, false) AS created
REMOVE i.fresh
RETURN count(CASE WHEN created THEN 1 END) AS created, count(*) AS total, collect({before: before, after: i {.*}}) AS changed
