// Whether the user holds one of $roles as a tenant role in the tenant (the LEVEL reviewer rule).
RETURN EXISTS {
  MATCH (:User {env: $env, key: $user})-[h:HAS_TENANT_ROLE]->(:Tenant {env: $env, key: $tenant})
  WHERE h.role IN $roles
} AS holds
