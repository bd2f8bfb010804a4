// @invalidates $env
// @changes relationship_tuple:create
// @row { written: number; renewed: number; id: string | null; created_at: string | null; tenant: string | null }
// Tuples of $items {subject_type, subject_key, relation, object_type, object_key, tenant?, expires_at? (epoch ms)}, one
// pass, no per-item answer: an item is written only when both instances exist, the relation is
// one of the object type's with the subject's type as its subject, and both instances are in the
// item's tenant (or, when it names none, in the subject's). `written` counts the items that
// were; when it is short of size($items) the caller checks each item (making the missing
// instances, or refusing the batch). MERGE keeps repeats out; the statement's count of created
// relationships says how many are new, and `renewed` how many expired ones were made again.
CALL () {
  UNWIND $objectTypes AS objectType
  // `key IS NOT NULL` (always true): an index seek on the environment's entries, not a scan of every environment's.
  MATCH (rel:Relation {env: $env, resource: objectType}) WHERE rel.key IS NOT NULL
  RETURN collect(rel.resource + ':' + rel.key + ':' + rel.subject_resource) AS relations
}
UNWIND $items AS x
MATCH (s:Instance {env: $env, resource: x.subject_type, key: x.subject_key})
MATCH (o:Instance {env: $env, resource: x.object_type, key: x.object_key})
WHERE (x.object_type + ':' + x.relation + ':' + x.subject_type) IN relations
  AND s.tenant = coalesce(x.tenant, s.tenant) AND o.tenant = s.tenant
WITH *, toInteger(x.expires_at) AS expiresAt
MERGE (s)-[r:RELATED {relation: x.relation}]->(o)
  ON CREATE SET r.id = randomUUID(), r.tenant = s.tenant, r.created_at = $nowIso, r.expires_at = expiresAt
// #include fragments/renewExpiredGrant
RETURN count(r) AS written, count(CASE WHEN renewed THEN 1 END) AS renewed, head(collect(r.id)) AS id, head(collect(r.created_at)) AS created_at, head(collect(s.tenant)) AS tenant
