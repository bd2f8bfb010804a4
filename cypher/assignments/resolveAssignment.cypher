// What a role assignment {user, role, tenant, resource_instance?} refers to, for the domain's checks.
OPTIONAL MATCH (i:Instance {env: $env, resource: $resource, key: $instance})
RETURN EXISTS { MATCH (:User {env: $env, key: $user}) } AS userExists,
       EXISTS { MATCH (:Tenant {env: $env, key: $tenant}) } AS tenantExists,
       i IS NOT NULL AS instanceExists,
       i.tenant AS instanceTenant,
       EXISTS { MATCH (:Role {env: $env, key: $role}) } AS tenantRoleExists,
       ($resource IS NOT NULL AND EXISTS { MATCH (:ResourceRole {env: $env, resource: $resource, key: $role}) }) AS resourceRoleExists
