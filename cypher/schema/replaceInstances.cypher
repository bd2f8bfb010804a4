// @invalidates $env
// @changes resource_instance:update
// @row {
//   created: number;
//   total: number;
//   changed: { before: StoredInstance | null; after: StoredInstance }[];
//   elsewhere: { resource: string; key: string; tenant: string }[];
// }
// Permit's bulk replace (PUT bulk/resource_instances), after the domain checked the batch with
// resolveInstances: each instance is created in its tenant, or has its attributes replaced.
// An instance another transaction created in another tenant since that check (the MERGE finds it
// under the key's lock) is left as it is and answered in `elsewhere`: the domain then refuses the
// batch (409) and the transaction rolls back. `changed` holds each instance's stored state before
// (null when created) and after (src/areas/changes/capture.ts).
UNWIND $items AS x
MATCH (t:Tenant {env: $env, key: x.tenant})
OPTIONAL MATCH (old:Instance {env: $env, resource: x.resource, key: x.key})
WITH x, t, old {.*} AS before
MERGE (i:Instance:InEnv {env: $env, resource: x.resource, key: x.key})
  ON CREATE SET i.id = randomUUID(), i.tenant = t.key, i.created_at = $nowIso, i.fresh = true
WITH x, t, i, before, i.tenant = t.key AS ours
CALL (x, t, i, ours) {
  WITH * WHERE ours
  SET i.attributes_json = x.attributes, i.updated_at = $nowIso
  MERGE (i)-[:IN_TENANT]->(t)
}
WITH i, before, ours, coalesce(i.fresh, false) AS created
REMOVE i.fresh
RETURN count(CASE WHEN created THEN 1 END) AS created, count(CASE WHEN ours THEN 1 END) AS total,
       collect(CASE WHEN ours THEN {before: before, after: i {.*}} END) AS changed,
       collect(CASE WHEN NOT ours THEN {resource: i.resource, key: i.key, tenant: i.tenant} END) AS elsewhere
