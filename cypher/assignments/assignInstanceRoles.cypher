// @invalidates $env
// Instance role assignments of $items {user, role, tenant?, resource, instance, expires_at?}, one pass, no
// per-item answer: an item is written only when its user and instance exist, the instance is in
// the item's tenant (or the item names none) and the role is a resource role of the instance's
// resource or a tenant role. `written` counts the items that were; when it is short of
// size($items) the caller explains the first failing item and rolls the transaction back.
// MERGE keeps repeats (in the batch, or concurrent) out; the statement's count of created
// relationships says how many are new. `expires_at`: epoch ms (null: never). `members` are the (user, tenant) pairs to join.
CALL {
  MATCH (role:Role {env: $env})
  RETURN collect(role.key) AS tenantRoles
}
CALL {
  UNWIND $resources AS resource
  MATCH (role:ResourceRole {env: $env, resource: resource})
  RETURN collect(resource + ':' + role.key) AS resourceRoles
}
UNWIND $items AS a
MATCH (u:User {env: $env, key: a.user})
MATCH (i:Instance {env: $env, resource: a.resource, key: a.instance})
WHERE (a.tenant IS NULL OR i.tenant = a.tenant)
  AND ((a.resource + ':' + a.role) IN resourceRoles OR a.role IN tenantRoles)
MERGE (u)-[r:HAS_ROLE {role: a.role}]->(i)
  ON CREATE SET r.tenant = i.tenant, r.created_at = $now, r.expires_at = toInteger(a.expires_at)
RETURN count(r) AS written, head(collect(elementId(r))) AS id, head(collect(r.created_at)) AS created_at,
       head(collect(i.tenant)) AS tenant, collect(DISTINCT {user: u.key, tenant: i.tenant}) AS members
