// @row { idx: number; userExists: boolean; tenantExists: boolean; instanceExists: boolean; instanceTenant: string | null;
//   tenantRoleExists: boolean; resourceRoleExists: boolean }
// What each role assignment {user, role, tenant, resource, instance} of $items refers to, for the
// domain's checks; one row per item, in order.
UNWIND range(0, size($items) - 1) AS idx
WITH idx, $items[idx] AS a
OPTIONAL MATCH (i:Instance {env: $env, resource: a.resource, key: a.instance})
RETURN idx,
       EXISTS { MATCH (:User {env: $env, key: a.user}) } AS userExists,
       (a.tenant IS NOT NULL AND EXISTS { MATCH (:Tenant {env: $env, key: a.tenant}) }) AS tenantExists,
       i IS NOT NULL AS instanceExists,
       i.tenant AS instanceTenant,
       EXISTS { MATCH (:Role {env: $env, key: a.role}) } AS tenantRoleExists,
       (a.resource IS NOT NULL AND EXISTS { MATCH (:ResourceRole {env: $env, resource: a.resource, key: a.role}) }) AS resourceRoleExists
ORDER BY idx
