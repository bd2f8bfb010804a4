// @row { total: number; data: ConditionSetNode[] }
// `key IS NOT NULL` (always true): an index seek on the environment's sets, not a scan of every environment's.
MATCH (s:ConditionSet {env: $env}) WHERE s.key IS NOT NULL AND ($type IS NULL OR s.type = $type)
WITH s ORDER BY s.created_at, s.key
WITH collect(s) AS items
WITH size(items) AS total, items[$skip..($skip + $limit)] AS page
RETURN total, [s IN page | s {.*,
  resource_id: head(COLLECT { MATCH (s)-[:OF_RESOURCE]->(r:Resource) RETURN r.id }),
  parent_id: head(COLLECT { MATCH (s)-[:NARROWS]->(p:ConditionSet) RETURN p.id })
}] AS data
