// @row { rules: SetRuleNode[]; sets: { key: string; type: string; resource: string | null; parent: string | null; conditions_json: string }[] }
// The environment's set rules and condition sets, read once per revision by the decisions
// (src/areas/conditions/rules.ts). `key IS NOT NULL`: index seeks on the environment's entries.
RETURN COLLECT { MATCH (rule:SetRule {env: $env}) WHERE rule.key IS NOT NULL RETURN rule {.*} ORDER BY rule.key } AS rules,
       COLLECT { MATCH (s:ConditionSet {env: $env}) WHERE s.key IS NOT NULL
                 RETURN s {.key, .type, .resource, .parent, .conditions_json} ORDER BY s.key } AS sets
