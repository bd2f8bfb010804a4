// Whether a decision could grant the user anything on an instance of the tenant: it needs an
// instance role (held directly, or group membership) or a tenant role there. When neither
// exists the per-instance `review` checks are skipped.
OPTIONAL MATCH (u:User {env: $env, key: $user})
RETURN u IS NOT NULL AND (
  EXISTS { (u)-[:HAS_ROLE]->() } OR EXISTS { (u)-[:HAS_TENANT_ROLE]->(:Tenant {env: $env, key: $tenant}) }
) AS may
