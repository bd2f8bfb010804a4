// @invalidates $env
// @changes set_rule:create
// @row { rule: SetRuleNode; created: number }
// A set rule: `user_set` grants `permission` on `resource_set`. A set named is linked
// (USER_SET / RESOURCE_SET edges; with is_role / is_resource the name is a role / resource type,
// not a set). Creating an existing rule answers it again (created 0).
OPTIONAL MATCH (existing:SetRule {env: $env, key: $key})
OPTIONAL MATCH (us:ConditionSet {env: $env, key: $user_set}) WHERE NOT $is_role
OPTIONAL MATCH (rs:ConditionSet {env: $env, key: $resource_set}) WHERE NOT $is_resource
FOREACH (_ IN CASE WHEN existing IS NULL THEN [1] ELSE [] END |
  CREATE (rule:SetRule:InEnv {env: $env, id: $id, key: $key, user_set: $user_set, permission: $permission,
                              resource_set: $resource_set, is_role: $is_role, is_resource: $is_resource,
                              created_at: $nowIso, updated_at: $nowIso})
  FOREACH (_u IN CASE WHEN us IS NULL THEN [] ELSE [1] END | CREATE (rule)-[:USER_SET]->(us))
  FOREACH (_r IN CASE WHEN rs IS NULL THEN [] ELSE [1] END | CREATE (rule)-[:RESOURCE_SET]->(rs))
)
WITH existing
MATCH (rule:SetRule {env: $env, key: $key})
RETURN rule {.*} AS rule, CASE WHEN existing IS NULL THEN 1 ELSE 0 END AS created
