// @invalidates $env
// @changes role_assignment:create
// @row { written: number; renewed: number; edgesCreated: number; id: string | null; created_at: string | null; tenant: string | null; members: { user: string; tenant: string }[] }
// cypher/assignments/assignInstanceRoles.cypher written by the walk extension
// (graphauthz.assignInstanceRoles, neo4j/extension AssignInstanceRoles.java): the same parameters,
// the same edges and properties, the same row, and `edgesCreated`, the count of edges it created (a
// procedure's writes are not in the statement's counters; not `created`: a count column at 0 would
// mean no change to the change log, src/areas/changes/capture.ts, and renewals are changes). Chosen when the extension answers
// (src/db/walkSelection.ts); docs/walk-extension.md, "Writes".
CALL graphauthz.assignInstanceRoles($env, $users, $userOf, $roles, $tenants, $resources, $instances, $expires,
                                    $resourceKeys, $nowIso, $nowMs)
YIELD written, renewed, edgesCreated, id, created_at, tenant, members
RETURN written, renewed, edgesCreated, id, created_at, tenant, members
