// @row { keys: string[]; tenants: string[]; tenantOf: number[]; validUntil: number | null; revision: number | null }
// The instances of type $type on which user $user may do $action, one page in key order: the
// forward walk (fragments/reachableStates) from the user's role assignments keeps the reached
// states whose node is a $type instance and whose role gives the action (fragments/rolesOnType);
// a tenant role of the user that gives the action adds every $type instance of its tenant
// (fragments/rule/tenantScopeGrant).
// $tenant (nullable) narrows to one tenant; $after (nullable) resumes after that key; at most
// $limit objects. Edges whose `expires_at` (epoch ms) is at or before $nowMs grant nothing.
// validUntil (epoch ms, null: none): the earliest time the list can change without a write: the
// earliest `until` of the states that give the action on a $type instance (after $after, in
// $tenant), of the tenant role grants that give it, and, when a derivation applies only without a
// direct role on the object, of the user's direct assignments (their expiry can start it).
WITH false AS withTrails
// #include fragments/walkFromUser
WITH *, $type AS resourceType
// #include fragments/rolesOnType
WITH *, [grant IN rolesOnType WHERE $action IN grant.actions | grant.role] AS instanceRolesGranting,
     [grant IN tenantRolesOnType WHERE $action IN grant.actions | grant.role] AS tenantRolesGranting
CALL (reachedStates, instanceRolesGranting) {
  UNWIND reachedStates AS state
  WITH state.node AS instance, state.role AS role, state.until AS until
  WHERE instance.resource = $type AND role IN instanceRolesGranting
    AND ($tenant IS NULL OR instance.tenant = $tenant) AND ($after IS NULL OR instance.key > $after)
  RETURN collect(instance) AS viaRoles, min(until) AS rolesUntil
}
CALL (user, tenantRolesGranting) {
  OPTIONAL MATCH (user)-[grant:HAS_TENANT_ROLE]->(tenant:Tenant)
  WHERE ($tenant IS NULL OR tenant.key = $tenant) AND
// #include fragments/rule/tenantScopeGrant
  WITH tenant, min(grant.expires_at) AS grantUntil
  OPTIONAL MATCH (instance:Instance {env: $env, tenant: tenant.key})
  WHERE instance.resource = $type AND ($after IS NULL OR instance.key > $after)
  RETURN collect(instance) AS viaTenantRoles, min(grantUntil) AS tenantUntil
}
WITH *, reduce(earliest = null, expiry IN [rolesUntil, tenantUntil] +
          CASE WHEN any(derivation IN derivations WHERE derivation.no_direct_roles_on_object)
               THEN [assignment IN directAssignments | assignment.until] ELSE [] END |
          CASE WHEN expiry IS NULL THEN earliest
               WHEN earliest IS NULL OR expiry < earliest THEN expiry ELSE earliest END) AS validUntil
CALL (viaRoles, viaTenantRoles) {
  UNWIND viaRoles + viaTenantRoles AS instance
  WITH DISTINCT instance
  ORDER BY instance.key
  LIMIT $limit
  // Every listed instance is a $type instance: the page is its keys in order and each one's tenant,
  // as an index into the distinct tenants (a row of [type, key, tenant] a listed object was three
  // strings to send and decode an object, two of them the same on almost every one).
  RETURN collect(instance.key) AS keys, collect(instance.tenant) AS pageTenants
}
WITH keys, pageTenants, validUntil,
     reduce(distinct = [], t IN pageTenants | CASE WHEN any(d IN distinct WHERE d = t) THEN distinct ELSE distinct + [t] END) AS tenants
RETURN keys, tenants, [t IN pageTenants | head([i IN range(0, size(tenants) - 1) WHERE tenants[i] = t])] AS tenantOf, validUntil,
       head(COLLECT { MATCH (environment:Environment {id: $env}) RETURN coalesce(environment.revision, 0) }) AS revision
