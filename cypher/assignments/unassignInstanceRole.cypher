MATCH (:User {env: $env, key: $user})-[r:HAS_ROLE {role: $role}]->(i:Instance {env: $env, resource: $resource, key: $instance})
WHERE coalesce(r.tenant, i.tenant) = $tenant
DELETE r
RETURN count(*) AS removed
