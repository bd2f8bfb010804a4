// @invalidates $env
// @changes set_rule:delete
// @row { deleted: number; before: SetRuleNode | null }
MATCH (rule:SetRule {env: $env, key: $key})
WITH rule, rule {.*} AS before
DETACH DELETE rule
RETURN count(*) AS deleted, collect(before)[0] AS before
