MATCH (rel:Relation {env: $env, resource: $resource})
WITH rel ORDER BY rel.created_at, rel.key
WITH collect(rel) AS items
WITH size(items) AS total, items[$skip..($skip + $limit)] AS page
RETURN total, [rel IN page | rel {.*,
  object_resource_id: head(COLLECT { MATCH (o:Resource {env: $env, key: rel.resource}) RETURN o.id }),
  subject_resource_id: head(COLLECT { MATCH (s:Resource {env: $env, key: rel.subject_resource}) RETURN s.id })
}] AS data
