// @row { total: number; data: RelationNode[] }
// `key IS NOT NULL` (always true): an index seek on the environment's entries, not a scan of every environment's.
MATCH (rel:Relation {env: $env, resource: $resource}) WHERE rel.key IS NOT NULL
WITH rel ORDER BY rel.created_at, rel.key
WITH collect(rel) AS items
WITH size(items) AS total, items[$skip..($skip + $limit)] AS page
RETURN total, [rel IN page | rel {.*,
  object_resource_id: head(COLLECT { MATCH (o:Resource {env: $env, key: rel.resource}) RETURN o.id }),
  subject_resource_id: head(COLLECT { MATCH (s:Resource {env: $env, key: rel.subject_resource}) RETURN s.id })
}] AS data
