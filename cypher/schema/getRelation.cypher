// @row { relation: RelationNode }
// A relation of a resource by the reference rule (key, else id).
OPTIONAL MATCH (byKey:Relation {env: $env, resource: $resource, key: $ref})
OPTIONAL MATCH (byId:Relation {env: $env, resource: $resource}) WHERE byId.id = $ref
// #include fragments/keyElseId
WITH referenced AS rel WHERE rel IS NOT NULL
OPTIONAL MATCH (o:Resource {env: $env, key: rel.resource})
OPTIONAL MATCH (s:Resource {env: $env, key: rel.subject_resource})
RETURN rel {.*, object_resource_id: o.id, subject_resource_id: s.id} AS relation
