// @invalidates $env
// @changes relationship_tuple:delete
// @row {
//   removed: number;
//   changed: {
//     key: string;
//     before: { id: string; subject: string; relation: string; object: string; tenant: string | null; created_at: string | null; expires_at: string | null };
//   }[];
// }
// Removes the tuples of $items that exist (a tuple's tenant, when given, must match); answers how
// many (`removed`) and, read before the delete, each one's change (`changed`, see
// src/areas/changes/capture.ts): its key as the item names it
// (subject type/key/relation/object type/key[/tenant]) and its state as the API shows it.
UNWIND $items AS x
OPTIONAL MATCH (s:Instance {env: $env, resource: x.subject_type, key: x.subject_key})-[r:RELATED {relation: x.relation}]->(o:Instance {env: $env, resource: x.object_type, key: x.object_key})
WHERE x.tenant IS NULL OR r.tenant = x.tenant
WITH x, r, s, o
WHERE r IS NOT NULL
WITH r, head(collect(x)) AS x, head(collect(s)) AS s, head(collect(o)) AS o
WITH collect({edge: r,
              key: x.subject_type + '/' + x.subject_key + '/' + x.relation + '/' + x.object_type + '/' + x.object_key + coalesce('/' + x.tenant, ''),
              before: {id: coalesce(r.id, elementId(r)), subject: s.resource + ':' + s.key, relation: r.relation, object: o.resource + ':' + o.key,
                       tenant: r.tenant, created_at: r.created_at,
                       expires_at: CASE WHEN r.expires_at IS NULL THEN null
                                   ELSE left(toString(datetime({epochMillis: r.expires_at})), 19) + '.' + right('00' + toString(r.expires_at % 1000), 3) + 'Z' END}}) AS found
FOREACH (e IN [f IN found | f.edge] | DELETE e)
RETURN size(found) AS removed, [f IN found | {key: f.key, before: f.before}] AS changed
