CALL {
  MATCH (rel:Relation {env: $env, resource: $resource, key: $ref}) RETURN rel
  UNION
  MATCH (rel:Relation {env: $env, resource: $resource}) WHERE rel.id = $ref RETURN rel
}
WITH rel LIMIT 1
OPTIONAL MATCH (o:Resource {env: $env, key: rel.resource})
OPTIONAL MATCH (s:Resource {env: $env, key: rel.subject_resource})
RETURN rel {.*, object_resource_id: o.id, subject_resource_id: s.id} AS relation
