// @invalidates $env
// @changes condition_set:delete
// @row { deleted: number; before: ConditionSetNode | null }
MATCH (s:ConditionSet {env: $env, key: $key})
WITH s, s {.*} AS before
DETACH DELETE s
RETURN count(*) AS deleted, collect(before)[0] AS before
