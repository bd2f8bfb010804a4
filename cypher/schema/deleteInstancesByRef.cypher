// @invalidates $env
// @changes resource_instance:delete
// @row { missing: string[]; deleted: number; changed: { before: StoredInstance }[] }
// Permit's bulk delete (DELETE bulk/resource_instances): instances named "type:key" (else by id)
// with their assignments, tuples and group links. Deletes nothing when a ref names no instance.
// `changed` holds each deleted instance's stored state, read before the delete (src/areas/changes/capture.ts).
UNWIND $refs AS x
OPTIONAL MATCH (byKey:Instance {env: $env, resource: x.resource, key: x.key})
OPTIONAL MATCH (byId:Instance {id: x.ref}) WHERE byId.env = $env
WITH x, coalesce(byKey, byId) AS i
WITH collect(CASE WHEN i IS NULL THEN x.ref END) AS missing, collect(DISTINCT i) AS instances
CALL (missing, instances) {
  WITH instances WHERE size(missing) = 0
  UNWIND instances AS i
  WITH i, i {.*} AS before
  DETACH DELETE i
  RETURN count(*) AS deleted, collect({before: before}) AS changed
}
RETURN missing, deleted, changed
