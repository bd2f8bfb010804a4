// @invalidates $env
// @changes relation:delete
// @row { deleted: number; before: RelationNode | null }
// Removes the relation, the derivations over it and the tuples that use it.
MATCH (rel:Relation {env: $env, resource: $resource, key: $key})
WITH rel, rel {.*} AS before
CALL (rel) {
  MATCH (d:Derivation {env: $env, resource: rel.resource, relation: rel.key})
  DETACH DELETE d
}
CALL (rel) {
  MATCH (:Instance {env: $env, resource: rel.subject_resource})-[e:RELATED {relation: rel.key}]->(:Instance {env: $env, resource: rel.resource})
  DELETE e
}
DETACH DELETE rel
RETURN count(*) AS deleted, collect(before)[0] AS before
