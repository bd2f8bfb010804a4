MATCH (:User {env: $env, key: $user})-[r:HAS_TENANT_ROLE {role: $role}]->(:Tenant {env: $env, key: $tenant})
DELETE r
RETURN count(*) AS removed
