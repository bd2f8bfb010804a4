// @invalidates $env
// @changes role_assignment:create
// @row { written: number; renewed: number; id: string | null; created_at: string | null; tenant: string | null; members: { user: string; tenant: string }[] }
// Instance role assignments, one pass, no per-item answer. The batch comes as columns, item k
// being ($userOf[k], $roles[k], $tenants[k], $resources[k], $instances[k], $expires[k]): its
// user is $users[$userOf[k]] (each user of a batch is looked up once; numbers arrive as floats,
// hence toInteger), its tenant may be null (the instance's), `expiresAt` is epoch ms (null: never).
// An item is written only when its user and instance exist, the instance is in the item's tenant
// (or the item names none) and the role is a resource role of the instance's resource or a tenant
// role. `written` counts the items that were; when it is short of the batch size the caller
// explains the first failing item and rolls the transaction back. MERGE keeps repeats (in the
// batch, or concurrent) out; the statement's count of created relationships says how many are
// new, and `renewed` how many expired ones were made again. `members` are the (user, tenant) pairs
// to join (cypher/assignments/joinTenants.cypher): those of the written items whose user is not
// yet in the tenant (a bulk of one client's users, most already in it, then needs no second statement).
CALL () {
  // `key IS NOT NULL` (always true): an index seek on the environment's roles, not a scan of every environment's.
  MATCH (role:Role {env: $env}) WHERE role.key IS NOT NULL
  RETURN collect(role.key) AS tenantRoles
}
CALL () {
  UNWIND $resourceKeys AS resource
  MATCH (role:ResourceRole {env: $env, resource: resource})
  RETURN collect(resource + ':' + role.key) AS resourceRoles
}
CALL () {
  UNWIND range(0, size($users) - 1) AS k
  OPTIONAL MATCH (user:User {env: $env, key: $users[k]})
  WITH k, user ORDER BY k
  // [user] and not user: collect() leaves nulls out, and index k must stay user k.
  RETURN collect([user]) AS userNodes
}
UNWIND range(0, size($instances) - 1) AS k
WITH tenantRoles, resourceRoles, userNodes[toInteger($userOf[k])][0] AS u, $roles[k] AS role, $tenants[k] AS tenant,
     $resources[k] AS resource, $instances[k] AS instance, toInteger($expires[k]) AS expiresAt
WHERE u IS NOT NULL
MATCH (i:Instance {env: $env, resource: resource, key: instance})
WHERE (tenant IS NULL OR i.tenant = tenant)
  AND ((resource + ':' + role) IN resourceRoles OR role IN tenantRoles)
MERGE (u)-[r:HAS_ROLE {role: role}]->(i)
  ON CREATE SET r.id = randomUUID(), r.tenant = i.tenant, r.created_at = $nowIso, r.expires_at = expiresAt
// #include fragments/renewExpiredGrant
WITH count(r) AS written, count(CASE WHEN renewed THEN 1 END) AS renewed, head(collect(r.id)) AS id, head(collect(r.created_at)) AS created_at,
     head(collect(i.tenant)) AS tenant, collect(DISTINCT [u, i.tenant]) AS pairs
CALL (pairs) {
  UNWIND pairs AS pair
  WITH pair[0] AS u, pair[1] AS tenantKey
  WHERE NOT EXISTS { (u)-[:IN_TENANT]->(t:Tenant) WHERE t.key = tenantKey }
  RETURN collect({user: u.key, tenant: tenantKey}) AS members
}
RETURN written, renewed, id, created_at, tenant, members
