// Fragment: which roles give which actions on an instance of one resource type (the grant rules).
// Rules:
//  - at instance scope (a role held on the instance itself, or reached by the walk), a resource
//    role of the type gives its permissions; a tenant-level role of a key the type has no resource
//    role of gives those of its permissions that name the type ("type:action");
//  - at tenant scope (a tenant role assignment), a tenant-level role gives its permissions that
//    name the type on every instance of the type in that tenant, whatever resource roles exist;
//  - a tenant-level role has the permissions of every role it extends (EXTENDS, transitively:
//    fragments/rule/tenantRoleAncestors);
//    a resource role's ancestors are states of the walk (fragments/reachableStates).
// Both lists are by role key (as the extension's RuleTables lists them).
// Needs: $env, resourceType. Produces:
//   rolesOnType        [{role, actions}] the roles that act on a resourceType instance at instance scope
//   tenantRolesOnType  [{role, actions}] each tenant-level role with its actions on resourceType
CALL (resourceType) {
  OPTIONAL MATCH (resourceRole:ResourceRole {env: $env, resource: resourceType})
  WITH resourceType, resourceRole ORDER BY resourceRole.key
  WITH resourceType, collect(resourceRole {role: resourceRole.key, actions: resourceRole.permissions}) AS resourceRoles
  // `key IS NOT NULL` (always true): an index seek on (env, key), not a scan of every environment's roles.
  OPTIONAL MATCH (tenantRole:Role {env: $env}) WHERE tenantRole.key IS NOT NULL
  WITH resourceType, resourceRoles, tenantRole ORDER BY tenantRole.key
  WITH resourceType, resourceRoles, tenantRole, reduce(permissions = tenantRole.permissions, ancestor IN
// #include fragments/rule/tenantRoleAncestors
         | permissions + ancestor.permissions) AS permissions
  WITH resourceRoles, collect(tenantRole {role: tenantRole.key, actions: [permission IN permissions
         WHERE permission STARTS WITH resourceType + ':' | substring(permission, size(resourceType) + 1)]}) AS tenantRoles
  RETURN resourceRoles + [tenantRole IN tenantRoles WHERE NONE(resourceRole IN resourceRoles WHERE resourceRole.role = tenantRole.role)] AS rolesOnType,
         tenantRoles AS tenantRolesOnType
}
