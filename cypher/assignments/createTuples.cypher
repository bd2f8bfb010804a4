// @invalidates $env
// Tuples of $items (checked by the domain; missing instances were made just before), one pass,
// no per-item answer. `written` counts the items whose instances are still in the item's tenant
// (short of size($items): something changed meanwhile, the caller rolls back); MERGE keeps
// repeats out and the statement's count of created relationships says how many are new.
UNWIND $items AS x
MATCH (s:Instance {env: $env, resource: x.subject_type, key: x.subject_key})
MATCH (o:Instance {env: $env, resource: x.object_type, key: x.object_key})
// Checked by the domain already; checked again here so that a concurrent change cannot link two tenants.
WHERE s.tenant = x.tenant AND o.tenant = x.tenant
MERGE (s)-[r:RELATED {relation: x.relation}]->(o)
  ON CREATE SET r.tenant = x.tenant, r.created_at = $now
RETURN count(r) AS written, head(collect(elementId(r))) AS id, head(collect(r.created_at)) AS created_at
