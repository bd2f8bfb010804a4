// The tenant (key or id) and user (key or id) of a login, and whether the user belongs to the tenant.
OPTIONAL MATCH (t:Tenant {env: $env})
  WHERE t.key = $tenant OR t.id = $tenant
WITH t ORDER BY CASE WHEN t.key = $tenant THEN 0 ELSE 1 END LIMIT 1
OPTIONAL MATCH (u:User {env: $env})
  WHERE u.key = $user OR u.id = $user
WITH t, u ORDER BY CASE WHEN u.key = $user THEN 0 ELSE 1 END LIMIT 1
RETURN t.key AS tenant, u.key AS user,
       t IS NOT NULL AND u IS NOT NULL AND EXISTS { (u)-[:IN_TENANT]->(t) } AS member
