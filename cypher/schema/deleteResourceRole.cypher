// @invalidates $env
// @changes resource_role:delete
// @row { deleted: number; before: ResourceRoleNode | null }
// Removes the role, the derivations that name it (as granted or as required role) and the
// role assignments of it on the resource's instances.
MATCH (rr:ResourceRole {env: $env, resource: $resource, key: $key})
// The role's lock first: a grant of it being written (an approval) commits before its
// assignments are read below, or waits for this deletion and sees the role gone.
SET rr._lock = true
REMOVE rr._lock
WITH rr, rr {.*} AS before
CALL (rr) {
  MATCH (d:Derivation {env: $env})
  WHERE (d.resource = rr.resource AND d.role = rr.key) OR (d.on_resource = rr.resource AND d.from_role = rr.key)
  DETACH DELETE d
}
CALL (rr) {
  MATCH (:User {env: $env})-[h:HAS_ROLE {role: rr.key}]->(:Instance {env: $env, resource: rr.resource})
  DELETE h
}
DETACH DELETE rr
RETURN count(*) AS deleted, collect(before)[0] AS before
