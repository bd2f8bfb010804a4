// @invalidates $env
// @changes condition_set:update
// @row { key: string; before: ConditionSetNode; after: ConditionSetNode }
// Sets the given fields ($parent: the new parent's key when $setParent).
MATCH (s:ConditionSet {env: $env, key: $key})
WITH s, s {.*} AS before
SET s.name = coalesce($name, s.name),
    s.description = CASE WHEN $setDescription THEN $description ELSE s.description END,
    s.conditions_json = coalesce($conditions_json, s.conditions_json),
    s.parent = CASE WHEN $setParent THEN $parent ELSE s.parent END,
    s.updated_at = $nowIso
WITH s, before
CALL (s) {
  MATCH (s)-[old:NARROWS]->(:ConditionSet) WHERE $setParent
  DELETE old
}
CALL (s) {
  MATCH (parent:ConditionSet {env: $env, key: $parent}) WHERE $setParent
  CREATE (s)-[:NARROWS]->(parent)
}
RETURN s.key AS key, before, s {.*} AS after
