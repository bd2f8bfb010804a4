// @row {
//   total: number;
//   data: {
//     id: string;
//     subject: string;
//     subject_id: string | null;
//     relation: string;
//     relation_id: string | null;
//     object: string;
//     object_id: string | null;
//     tenant: string | null;
//     tenant_id: string | null;
//     created_at: string | null;
//     /** Epoch ms; null: never expires. */
//     expires_at: number | null;
//   }[];
// }
// Relationship tuples, oldest first, with the ids of what they name (Permit's RelationshipTupleRead:
// subject_id, relation_id, object_id, tenant_id). Filters: $subject_type/$subject_key,
// $object_type/$object_key, $relation, $tenant (null = any).
// `key IS NOT NULL` (always true): an index seek on the environment's entries, not a scan of every environment's.
MATCH (s:Instance {env: $env})-[r:RELATED]->(o:Instance) WHERE s.resource IS NOT NULL AND s.key IS NOT NULL
WITH * WHERE ($subject_type IS NULL OR s.resource = $subject_type) AND ($subject_key IS NULL OR s.key = $subject_key)
  AND ($object_type IS NULL OR o.resource = $object_type) AND ($object_key IS NULL OR o.key = $object_key)
  AND ($relation IS NULL OR r.relation = $relation) AND ($tenant IS NULL OR r.tenant = $tenant)
WITH s, r, o ORDER BY r.created_at, s.resource, s.key, r.relation, o.resource, o.key
OPTIONAL MATCH (rel:Relation {env: $env, resource: o.resource, key: r.relation})
OPTIONAL MATCH (t:Tenant {env: $env, key: r.tenant})
WITH collect({id: r.id, subject: s.resource + ':' + s.key, subject_id: s.id, relation: r.relation, relation_id: rel.id,
              object: o.resource + ':' + o.key, object_id: o.id, tenant: r.tenant, tenant_id: t.id, created_at: r.created_at,
              expires_at: r.expires_at}) AS items
RETURN size(items) AS total, items[$skip..($skip + $limit)] AS data
