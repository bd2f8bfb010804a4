// @row { sets: { key: string; conditions_json: string; resource: string | null; type: string }[] }
// Every condition set of the environment with its conditions (for the 409 on deleting an
// attribute a set names, which the caller finds with the evaluator's parser, not with Cypher).
RETURN COLLECT {
  MATCH (s:ConditionSet {env: $env}) WHERE s.key IS NOT NULL
  RETURN s {.key, .conditions_json, .resource, .type} ORDER BY s.key
} AS sets
