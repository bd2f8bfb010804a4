MATCH (u:User {env: $env, key: $user})
MATCH (t:Tenant {env: $env, key: $tenant})
MATCH (i:Instance {env: $env, resource: $resource, key: $instance})
MERGE (u)-[r:HAS_ROLE {role: $role}]->(i)
  ON CREATE SET r.tenant = t.key, r.created_at = $now, r.fresh = true
MERGE (u)-[:IN_TENANT]->(t)
WITH r, coalesce(r.fresh, false) AS created
REMOVE r.fresh
RETURN created, elementId(r) AS id, r.created_at AS created_at
