// @row {
//   instances: { key: string; tenant: string; type: string; resource_key: string; roles: string[]; permissions: string[] }[];
//   tenants: { key: string; tenant: string; roles: string[]; permissions: string[] }[];
// }
// Everything a user may do: the forward walk (fragments/reachableStates) from the user's role
// assignments; each reached role gives its actions on its node's type (fragments/rolesOnType);
// plus the user's live tenant roles (fragments/rule/grantIsLive) with their permissions and those
// of the roles they extend (fragments/rule/tenantRoleAncestors). $tenants / $types (nullable) narrow the answer.
WITH false AS withTrails
// #include fragments/walkFromUser
CALL (reachedStates) {
  UNWIND reachedStates AS state
  WITH state WHERE ($tenants IS NULL OR state.node.tenant IN $tenants) AND ($types IS NULL OR state.node.resource IN $types)
  WITH state.node.resource AS resourceType, collect(state) AS statesOfType
  // #include fragments/rolesOnType
  UNWIND statesOfType AS state
  WITH state.node AS node, state.role AS role,
       [action IN coalesce(head([grant IN rolesOnType WHERE grant.role = state.role | grant.actions]), []) | resourceType + ':' + action] AS actions
  WITH node, collect(role) AS roles, reduce(permissions = [], given IN collect(actions) | permissions + [p IN given WHERE NOT p IN permissions]) AS permissions
  RETURN collect({key: node.resource + ':' + node.key, tenant: node.tenant, type: node.resource, resource_key: node.key,
                  roles: roles, permissions: permissions}) AS instances
}
CALL (user) {
  OPTIONAL MATCH (user)-[grant:HAS_TENANT_ROLE]->(tenant:Tenant)
  WHERE ($tenants IS NULL OR tenant.key IN $tenants) AND
// #include fragments/rule/grantIsLive
  OPTIONAL MATCH (tenantRole:Role {env: $env, key: grant.role})
  WITH tenant, grant, reduce(permissions = coalesce(tenantRole.permissions, []), ancestor IN
// #include fragments/rule/tenantRoleAncestors
         | permissions + ancestor.permissions) AS given
  WITH tenant, collect(grant.role) AS roles,
       reduce(permissions = [], given IN collect(given) | permissions + [p IN given WHERE NOT p IN permissions]) AS permissions
  WHERE tenant IS NOT NULL
  RETURN collect({key: '__tenant:' + tenant.key, tenant: tenant.key, roles: roles,
                  permissions: [p IN permissions WHERE $types IS NULL OR split(p, ':')[0] IN $types]}) AS tenants
}
RETURN instances, tenants
