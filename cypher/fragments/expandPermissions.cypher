// Fragment: a role's permissions as the walks read them (docs/behaviour.md section 23). `role` (a
// Role or a ResourceRole) keeps its permissions as written in `declared_permissions` (what the API
// answers back); this sets `role.permissions` to them with every action group among them followed
// by the group's actions, each once. A tenant role's permission "<resource>:<group>" gives
// "<resource>:<action>" for each action of the group; a resource role's "<group>" gives the actions.
// Every statement that writes a role's `declared_permissions`, or a group's actions, ends with it.
// Needs: role, $env. A unit subquery: it adds no rows and no variables.
CALL (role) {
  WITH role, coalesce(role.declared_permissions, role.permissions, []) AS declared
  UNWIND CASE WHEN size(declared) = 0 THEN [null] ELSE declared END AS permission
  WITH role, permission,
       CASE WHEN role:ResourceRole THEN role.resource ELSE split(permission, ':')[0] END AS groupResource,
       CASE WHEN role:ResourceRole THEN permission ELSE substring(permission, size(split(permission, ':')[0]) + 1) END AS groupKey
  OPTIONAL MATCH (actionGroup:ActionGroup {env: $env, resource: groupResource, key: groupKey})
  WITH role, permission, [permission] + [action IN coalesce(actionGroup.actions, []) |
         CASE WHEN role:ResourceRole THEN action ELSE groupResource + ':' + action END] AS given
  UNWIND given AS granted
  WITH role, collect(DISTINCT granted) AS expanded
  SET role.permissions = expanded
}
