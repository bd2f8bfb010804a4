// @row { tenant: string; assignments: { user: string; tenant: string; resource: string; role: string }[] }
// Who may do $action on an instance ($type, $key; $tenant narrows): the backward walk of
// allowed.cypher from the instance with each granting role (fragments/reachableStates), then the
// users holding a reached state's role on its node, plus the users whose tenant role in the
// instance's tenant (no instance: $tenant, else $defaultTenant) gives the action. An edge whose
// `expires_at` (epoch ms) is at or before $nowMs grants nothing (fragments/rule/grantIsLive).
// A derivation with `no_direct_roles_on_object` depends on the user: the first walk ignores that
// condition (it can only take grants away), and when the environment has such a derivation each
// user found is walked again with their own direct roles, keeping the assignments that walk reaches.
// #include fragments/derivations
OPTIONAL MATCH (target:Instance {env: $env, resource: $type, key: $key})
WITH derivations, roleHierarchy, resourceRoleKeys, target, $type AS resourceType, coalesce(target.tenant, $tenant, $defaultTenant) AS tenant
// #include fragments/rolesOnType
WITH *, [grant IN tenantRolesOnType WHERE $action IN grant.actions | grant.role] AS tenantRolesGranting,
     CASE WHEN target IS NULL OR ($tenant IS NOT NULL AND $tenant <> tenant) THEN []
          ELSE [grant IN rolesOnType WHERE $action IN grant.actions | {node: target, role: grant.role, trail: ''}] END AS startStates,
     false AS searchForward, false AS withTrails, [] AS stopWhenReached, [] AS directNodes
// #include fragments/reachableStates
CALL (reachedStates) {
  UNWIND reachedStates AS state
  WITH state.node AS node, state.role AS role
  MATCH (user:User)-[grant:HAS_ROLE {role: role}]->(node)
  WHERE
// #include fragments/rule/grantIsLive
  RETURN collect({user: user.key, tenant: node.tenant, resource: node.resource + ':' + node.key, role: role,
                  state: elementId(node) + '|' + role}) AS candidates
}
CALL (derivations, roleHierarchy, resourceRoleKeys, startStates, searchForward, withTrails, candidates) {
  WITH * WHERE any(derivation IN derivations WHERE derivation.no_direct_roles_on_object)
  UNWIND reduce(keys = [], candidate IN candidates | CASE WHEN candidate.user IN keys THEN keys ELSE keys + [candidate.user] END) AS candidateKey
  MATCH (holder:User {env: $env, key: candidateKey})
  // #include fragments/rule/directAssignments
  WITH *, [assignment IN directAssignments | elementId(assignment.node) + '|' + assignment.role] AS stopWhenReached
  // #include fragments/reachableStates
  RETURN count(*) > 0 AS conditional, collect([key IN reachedKeys WHERE key IN stopWhenReached | candidateKey + '|' + key]) AS confirmedLists
}
WITH *, reduce(all = [], confirmed IN confirmedLists | all + confirmed) AS confirmed
WITH *, [candidate IN candidates WHERE NOT conditional OR (candidate.user + '|' + candidate.state) IN confirmed
         | candidate {.user, .tenant, .resource, .role}] AS viaInstances
CALL (tenant, tenantRolesGranting) {
  OPTIONAL MATCH (user:User)-[grant:HAS_TENANT_ROLE]->(:Tenant {env: $env, key: tenant})
  WHERE
// #include fragments/rule/tenantScopeGrant
  RETURN collect(CASE WHEN user IS NULL THEN null ELSE {user: user.key, tenant: tenant, resource: '__tenant:' + tenant, role: grant.role} END) AS viaTenant
}
RETURN tenant, viaTenant + viaInstances AS assignments
