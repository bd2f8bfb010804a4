// @invalidates $env
// @changes user:delete
// @row { missing: string[]; deleted: number; changed: { before: UserNode }[] }
// Permit's bulk delete (DELETE bulk/users): the users named by $refs (key, else id), with their
// memberships and assignments. `missing` lists the refs that name no user; `changed` each deleted
// user's stored state, read before the delete (src/areas/changes/capture.ts).
UNWIND $refs AS ref
OPTIONAL MATCH (byKey:User {env: $env, key: ref})
OPTIONAL MATCH (byId:User {id: ref}) WHERE byId.env = $env
WITH ref, coalesce(byKey, byId) AS u
WITH collect(CASE WHEN u IS NULL THEN ref END) AS missing, collect(DISTINCT u) AS users
CALL (missing, users) {
  WITH users WHERE size(missing) = 0
  UNWIND users AS u
  WITH u, u {.*} AS before
  DETACH DELETE u
  RETURN count(*) AS deleted, collect({before: before}) AS changed
}
RETURN missing, deleted, changed
