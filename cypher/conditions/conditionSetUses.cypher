// @row { rules: string[]; children: string[] }
// What still uses a condition set: set rules naming it, and sets narrowing it (a delete answers 409 naming them).
MATCH (s:ConditionSet {env: $env, key: $key})
RETURN COLLECT { MATCH (rule:SetRule)-[:USER_SET|RESOURCE_SET]->(s) RETURN rule.key ORDER BY rule.key } AS rules,
       COLLECT { MATCH (child:ConditionSet)-[:NARROWS]->(s) RETURN child.key ORDER BY child.key } AS children
