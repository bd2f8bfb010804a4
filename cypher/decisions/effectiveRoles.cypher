// @row { roles: { resource: string; tenant: string; role: string; path: string }[] }
// Each role a user holds on each instance, with the path that grants it: the forward walk
// (fragments/reachableStates) from the user's role assignments with readable trails, plus the
// user's tenant roles; an edge that is not live gives nothing (fragments/rule/grantIsLive); a tenant role gives the
// roles it extends (fragments/rule/tenantRoleAncestors). (A trail that ends with an `extends` hop already names its role.) $tenant (nullable) narrows the answer.
WITH true AS withTrails
// #include fragments/walkFromUser
WITH *, [(user)-[grant:HAS_TENANT_ROLE]->(tenant:Tenant) WHERE ($tenant IS NULL OR tenant.key = $tenant) AND
// #include fragments/rule/grantIsLive
          | {tenant: tenant.key, role: grant.role, path: 'user:' + user.key + ' -' + grant.role + '-> tenant:' + tenant.key}] AS tenantRolesHeld
RETURN [state IN reachedStates WHERE $tenant IS NULL OR state.node.tenant = $tenant |
          {resource: state.node.resource + ':' + state.node.key, tenant: state.node.tenant, role: state.role, path: CASE WHEN state.trail ENDS WITH '#' + state.role THEN state.trail ELSE state.trail + '#' + state.role END}]
     + [held IN tenantRolesHeld | {resource: '__tenant:' + held.tenant, tenant: held.tenant, role: held.role, path: held.path}]
     + reduce(inherited = [], held IN tenantRolesHeld | inherited + COLLECT {
          MATCH (tenantRole:Role {env: $env, key: held.role})
          UNWIND
// #include fragments/rule/tenantRoleAncestors
            AS ancestor
          RETURN {resource: '__tenant:' + held.tenant, tenant: held.tenant, role: ancestor.key,
                  path: held.path + '#' + held.role + ' -extends-> tenant:' + held.tenant + '#' + ancestor.key} AS entry })
       AS roles
