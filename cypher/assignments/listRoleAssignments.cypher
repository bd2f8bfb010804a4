// @row {
//   total: number;
//   data: {
//     id: string;
//     user: string;
//     user_id: string | null;
//     role: string;
//     role_id: string | null;
//     tenant: string;
//     tenant_id: string | null;
//     resource_instance: string | null;
//     resource_instance_id: string | null;
//     created_at: string | null;
//     /** Epoch ms; null: never expires. */
//     expires_at: number | null;
//   }[];
// }
// Tenant-level (HAS_TENANT_ROLE) and instance-level (HAS_ROLE) assignments, oldest first, with the
// ids of what they name (Permit's RoleAssignmentRead: user_id, role_id, tenant_id, resource_instance_id).
// Filters ($users, $roles, $tenants: lists, null = any; $resource: instances of that type; $instance:
// one instance, by key with $resource, or by id in $instanceId; $tenantLevelOnly: tenant-level ones only) narrow the answer.
CALL () {
  // Tenant-level ones only when no instance or resource narrows the answer.
  UNWIND CASE WHEN $instance IS NULL AND $instanceId IS NULL AND $resource IS NULL THEN [true] ELSE [] END AS tenantLevel
  // #include fragments/assignmentUsers
  MATCH (u)-[r:HAS_TENANT_ROLE]->(t:Tenant)
  WHERE ($roles IS NULL OR r.role IN $roles) AND ($tenants IS NULL OR t.key IN $tenants)
  OPTIONAL MATCH (role:Role {env: $env, key: r.role})
  RETURN r.id AS id, u.key AS user, u.id AS user_id, r.role AS role, role.id AS role_id, t.key AS tenant, t.id AS tenant_id,
         null AS resource_instance, null AS resource_instance_id, r.created_at AS created_at, r.expires_at AS expires_at
  UNION ALL
  // #include fragments/assignmentUsers
  MATCH (u)-[r:HAS_ROLE]->(i:Instance)
  WHERE NOT $tenantLevelOnly AND ($roles IS NULL OR r.role IN $roles)
    AND ($tenants IS NULL OR coalesce(r.tenant, i.tenant) IN $tenants)
    AND ($resource IS NULL OR i.resource = $resource)
    AND ($instance IS NULL OR i.key = $instance)
    AND ($instanceId IS NULL OR i.id = $instanceId)
  OPTIONAL MATCH (t:Tenant {env: $env, key: coalesce(r.tenant, i.tenant)})
  OPTIONAL MATCH (rr:ResourceRole {env: $env, resource: i.resource, key: r.role})
  OPTIONAL MATCH (tr:Role {env: $env, key: r.role})
  RETURN r.id AS id, u.key AS user, u.id AS user_id, r.role AS role, coalesce(rr.id, tr.id) AS role_id,
         coalesce(r.tenant, i.tenant) AS tenant, t.id AS tenant_id,
         i.resource + ':' + i.key AS resource_instance, i.id AS resource_instance_id, r.created_at AS created_at, r.expires_at AS expires_at
}
WITH id, user, user_id, role, role_id, tenant, tenant_id, resource_instance, resource_instance_id, created_at, expires_at
ORDER BY created_at, user, role, id
WITH collect({id: id, user: user, user_id: user_id, role: role, role_id: role_id, tenant: tenant, tenant_id: tenant_id,
              resource_instance: resource_instance, resource_instance_id: resource_instance_id, created_at: created_at, expires_at: expires_at}) AS items
RETURN size(items) AS total, items[$skip..($skip + $limit)] AS data
