// MERGE keeps concurrent duplicates out; `fresh` tells the caller whether this call created it.
MATCH (u:User {env: $env, key: $user})
MATCH (t:Tenant {env: $env, key: $tenant})
MERGE (u)-[r:HAS_TENANT_ROLE {role: $role}]->(t)
  ON CREATE SET r.created_at = $now, r.fresh = true
MERGE (u)-[:IN_TENANT]->(t)
WITH r, coalesce(r.fresh, false) AS created
REMOVE r.fresh
RETURN created, elementId(r) AS id, r.created_at AS created_at
