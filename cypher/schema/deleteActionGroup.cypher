// @invalidates $env
// @changes action_group:delete
// @row { deleted: number; before: ActionGroupNode | null }
// Removes action group $key of resource $resource (the caller holds the resource's lock). A group
// in use does not vanish silently from under a role: its permission ("<resource>:<group>" on a
// tenant role, "<group>" on a resource role) is taken off every role that holds it, and their
// expanded permissions are made again (fragments/expandPermissions), in this statement, as
// removing an action takes it off every role (schema/updateResource). Actions the role holds
// otherwise stay.
MATCH (g:ActionGroup {env: $env, resource: $resource, key: $key})
WITH g, g {.*} AS before
CALL (g) {
  MATCH (role:Role|ResourceRole {env: $env})
  WHERE (role:Role AND g.resource + ':' + g.key IN coalesce(role.declared_permissions, role.permissions, []))
     OR (role:ResourceRole AND role.resource = g.resource AND g.key IN coalesce(role.declared_permissions, role.permissions, []))
  SET role.declared_permissions = [p IN coalesce(role.declared_permissions, role.permissions, [])
                                   WHERE p <> CASE WHEN role:Role THEN g.resource + ':' + g.key ELSE g.key END]
  WITH role
// #include fragments/expandPermissions
}
DETACH DELETE g
RETURN count(*) AS deleted, collect(before)[0] AS before
