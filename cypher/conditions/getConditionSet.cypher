// @row { conditionSet: ConditionSetNode | null }
// A condition set by the reference rule (key, else id).
OPTIONAL MATCH (byKey:ConditionSet {env: $env, key: $ref})
OPTIONAL MATCH (byId:ConditionSet {id: $ref}) WHERE byId.env = $env
// #include fragments/keyElseId
OPTIONAL MATCH (referenced)-[:OF_RESOURCE]->(r:Resource)
OPTIONAL MATCH (referenced)-[:NARROWS]->(parent:ConditionSet)
RETURN CASE WHEN referenced IS NULL THEN null ELSE referenced {.*, resource_id: r.id, parent_id: parent.id} END AS conditionSet
