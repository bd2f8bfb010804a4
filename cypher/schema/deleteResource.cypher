// @invalidates $env
// @changes resource:delete
// @row { deleted: number; before: ResourceNode | null }
// Removes the resource and everything that hangs on it: its roles, its relations and the
// relations whose subject it is, its action groups, derivations that name it, its instances (with their role
// assignments, tuples, group links) and tenant-role permissions on it.
MATCH (r:Resource {env: $env, key: $key})
WITH r, r {.*} AS before
// Tenant roles first: an approval granting one of them locks it before the instance it grants
// on, so taking them in the same order here leaves no lock cycle.
CALL (r) {
  MATCH (t:Role {env: $env})
  WHERE any(p IN coalesce(t.permissions, []) WHERE p STARTS WITH r.key + ':')
  SET t.permissions = [p IN t.permissions WHERE NOT p STARTS WITH r.key + ':'],
      t.declared_permissions = [p IN coalesce(t.declared_permissions, []) WHERE NOT p STARTS WITH r.key + ':']
}
CALL (r) {
  MATCH (g:ActionGroup {env: $env, resource: r.key})
  DETACH DELETE g
}
CALL (r) {
  MATCH (d:Derivation {env: $env})
  WHERE d.resource = r.key OR d.on_resource = r.key
  DETACH DELETE d
}
CALL (r) {
  MATCH (rel:Relation {env: $env})
  WHERE rel.resource = r.key OR rel.subject_resource = r.key
  DETACH DELETE rel
}
CALL (r) {
  MATCH (rr:ResourceRole {env: $env, resource: r.key})
  DETACH DELETE rr
}
CALL (r) {
  MATCH (i:Instance {env: $env, resource: r.key})
  DETACH DELETE i
}
DETACH DELETE r
RETURN count(*) AS deleted, collect(before)[0] AS before
