// Each role a user holds on each instance, with the path that grants it: the forward walk
// (fragments/reachableStates) from the user's role assignments with readable trails, plus the
// user's tenant roles; an edge whose `expires_at` (epoch ms) is at or before $nowMs gives nothing. (A trail that ends with an `extends` hop already names its role.) $tenant (nullable) narrows the answer.
WITH true AS withTrails
// #include fragments/walkFromUser
RETURN [state IN reachedStates WHERE $tenant IS NULL OR state.node.tenant = $tenant |
          {resource: state.node.resource + ':' + state.node.key, tenant: state.node.tenant, role: state.role, path: CASE WHEN state.trail ENDS WITH '#' + state.role THEN state.trail ELSE state.trail + '#' + state.role END}]
     + [(user)-[held:HAS_TENANT_ROLE]->(tenant:Tenant) WHERE ($tenant IS NULL OR tenant.key = $tenant) AND (held.expires_at IS NULL OR held.expires_at > $nowMs) |
          {resource: '__tenant:' + tenant.key, tenant: tenant.key, role: held.role, path: 'user:' + user.key + ' -' + held.role + '-> tenant:' + tenant.key}]
     + reduce(inherited = [], extended IN [(user)-[held:HAS_TENANT_ROLE]->(tenant:Tenant) WHERE ($tenant IS NULL OR tenant.key = $tenant) AND (held.expires_at IS NULL OR held.expires_at > $nowMs) |
          [(heldRole:Role {env: $env, key: held.role})-[:EXTENDS*1..]->(ancestor:Role) |
            {resource: '__tenant:' + tenant.key, tenant: tenant.key, role: ancestor.key,
             path: 'user:' + user.key + ' -' + held.role + '-> tenant:' + tenant.key + '#' + held.role + ' -extends-> tenant:' + tenant.key + '#' + ancestor.key}]]
          | inherited + extended)
       AS roles
