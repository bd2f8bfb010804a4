// Tenant-level (HAS_TENANT_ROLE) and instance-level (HAS_ROLE) assignments, oldest first.
CALL () {
  // `key IS NOT NULL` (always true): an index seek on the environment's users, not a scan of every environment's.
  MATCH (u:User {env: $env})-[r:HAS_TENANT_ROLE]->(t:Tenant)
  WHERE u.key IS NOT NULL AND $instance IS NULL
    AND ($user IS NULL OR u.key = $user) AND ($role IS NULL OR r.role = $role) AND ($tenant IS NULL OR t.key = $tenant)
  RETURN elementId(r) AS id, u.key AS user, r.role AS role, t.key AS tenant, null AS resource_instance, r.created_at AS created_at, r.expires_at AS expires_at
  UNION ALL
  MATCH (u:User {env: $env})-[r:HAS_ROLE]->(i:Instance)
  WHERE u.key IS NOT NULL AND ($user IS NULL OR u.key = $user) AND ($role IS NULL OR r.role = $role)
    AND ($tenant IS NULL OR coalesce(r.tenant, i.tenant) = $tenant)
    AND ($instance IS NULL OR (i.resource = $resource AND i.key = $instance))
  RETURN elementId(r) AS id, u.key AS user, r.role AS role, coalesce(r.tenant, i.tenant) AS tenant,
         i.resource + ':' + i.key AS resource_instance, r.created_at AS created_at, r.expires_at AS expires_at
}
WITH id, user, role, tenant, resource_instance, created_at, expires_at
ORDER BY created_at, user, role, id
WITH collect({id: id, user: user, role: role, tenant: tenant, resource_instance: resource_instance, created_at: created_at, expires_at: expires_at}) AS items
RETURN size(items) AS total, items[$skip..($skip + $limit)] AS data
