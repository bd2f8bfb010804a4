// @invalidates $env
// @changes relation:update
// @row { key: string; before: RelationNode; after: RelationNode }
MATCH (rel:Relation {env: $env, resource: $resource, key: $key})
WITH rel, rel {.*} AS before
SET rel.name = coalesce($name, rel.name),
    rel.description = CASE WHEN $setDescription THEN $description ELSE rel.description END,
    rel.updated_at = $nowIso
RETURN rel.key AS key, before, rel {.*} AS after
