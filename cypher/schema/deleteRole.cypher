// @invalidates $env
// @changes role:delete
// @row { deleted: number; before: RoleNode | null }
// Removes a tenant role with its assignments: tenant-level ones, and instance-scope ones (and
// derivations) where no resource role of the same key is meant instead.
MATCH (t:Role {env: $env, key: $key})
// The role's lock first: a grant of it being written (an approval) commits before its
// assignments are read below, or waits for this deletion and sees the role gone.
SET t._lock = true
REMOVE t._lock
WITH t, t {.*} AS before
CALL (t) {
  MATCH (:User {env: $env})-[h:HAS_TENANT_ROLE {role: t.key}]->(:Tenant)
  DELETE h
}
CALL (t) {
  MATCH (:User {env: $env})-[h:HAS_ROLE {role: t.key}]->(i:Instance {env: $env})
  WHERE NOT EXISTS { MATCH (:ResourceRole {env: $env, resource: i.resource, key: t.key}) }
  DELETE h
}
CALL (t) {
  MATCH (d:Derivation {env: $env})
  WHERE (d.role = t.key AND NOT EXISTS { MATCH (:ResourceRole {env: $env, resource: d.resource, key: t.key}) })
     OR (d.from_role = t.key AND NOT EXISTS { MATCH (:ResourceRole {env: $env, resource: d.on_resource, key: t.key}) })
  DETACH DELETE d
}
DETACH DELETE t
RETURN count(*) AS deleted, collect(before)[0] AS before
