// Each role a user holds on each instance, with the path that grants it: the forward walk
// (fragments/reachableStates) from the user's role assignments with readable trails, plus the
// user's tenant roles. $tenant (nullable) narrows the answer.
WITH true AS withTrails
// #include fragments/walkFromUser
RETURN [state IN reachedStates WHERE $tenant IS NULL OR state.node.tenant = $tenant |
          {resource: state.node.resource + ':' + state.node.key, tenant: state.node.tenant, role: state.role, path: state.trail + '#' + state.role}]
     + [(user)-[held:HAS_TENANT_ROLE]->(tenant:Tenant) WHERE $tenant IS NULL OR tenant.key = $tenant |
          {resource: '__tenant:' + tenant.key, tenant: tenant.key, role: held.role, path: 'user:' + user.key + ' -' + held.role + '-> tenant:' + tenant.key}]
       AS roles
