// @row { total: number; data: SetRuleNode[] }
MATCH (rule:SetRule {env: $env}) WHERE rule.key IS NOT NULL
  AND ($user_set IS NULL OR rule.user_set = $user_set)
  AND ($permission IS NULL OR rule.permission = $permission)
  AND ($resource_set IS NULL OR rule.resource_set = $resource_set)
WITH rule ORDER BY rule.created_at, rule.key
WITH collect(rule {.*}) AS items
RETURN size(items) AS total, items[$skip..($skip + $limit)] AS data
