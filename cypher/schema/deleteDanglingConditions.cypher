// @invalidates $env
// @changes set_rule:delete
// @row { changed: ({ kind: string; key: string; before: SetRuleNode } | { kind: string; key: string; before: ConditionSetNode })[] }
// What the deletion before it (in the same transaction) left naming nothing: resource sets over
// a resource that no longer exists (the sets narrowing them are over it too), and set rules whose
// permission names a missing resource or action, whose user set is a missing set or tenant role
// (is_role), or whose resource set is a missing set. Permit deletes a resource, a role or an
// action "with all its related data": so are these, one change event each (docs/behaviour.md section 17).
CALL () {
  MATCH (s:ConditionSet {env: $env}) WHERE s.key IS NOT NULL AND s.type = 'resourceset'
    AND NOT EXISTS { MATCH (:Resource {env: $env, key: s.resource}) }
  RETURN collect(s) AS goneSets
}
CALL (goneSets) {
  MATCH (rule:SetRule {env: $env}) WHERE rule.key IS NOT NULL
  WITH rule, goneSets, split(rule.permission, ':')[0] AS resource
  OPTIONAL MATCH (r:Resource {env: $env, key: resource})
  WITH rule, goneSets, r, substring(rule.permission, size(resource) + 1) AS action
  WHERE r IS NULL OR NOT action IN coalesce(r.actions, [])
     OR (rule.is_role AND NOT EXISTS { MATCH (:Role {env: $env, key: rule.user_set}) })
     OR (NOT rule.is_role AND NOT EXISTS {
           MATCH (us:ConditionSet {env: $env, key: rule.user_set}) WHERE NOT us IN goneSets })
     OR (NOT rule.is_resource AND NOT EXISTS {
           MATCH (rs:ConditionSet {env: $env, key: rule.resource_set}) WHERE NOT rs IN goneSets })
  RETURN collect(rule) AS goneRules
}
WITH goneSets, goneRules,
     [rule IN goneRules | {kind: 'set_rule', key: rule.key, before: rule {.*}}] +
     [s IN goneSets | {kind: 'condition_set', key: s.key, before: s {.*}}] AS changed
CALL (goneRules) {
  UNWIND goneRules AS rule
  DETACH DELETE rule
}
CALL (goneSets) {
  UNWIND goneSets AS s
  DETACH DELETE s
}
RETURN changed
