// @invalidates $env
// @changes relationship_tuple:create
// @row { written: number; renewed: number; edgesCreated: number; id: string | null; created_at: string | null; tenant: string | null }
// cypher/assignments/createTuples.cypher written by the walk extension (graphauthz.createTuples,
// neo4j/extension CreateTuples.java): the same parameters, the same edges and properties, the same
// row, and `edgesCreated`, the count of edges it created (a procedure's writes are not in the
// statement's counters; not `created`: a count column at 0 would mean no change to the change log,
// src/areas/changes/capture.ts, and renewals are changes). Chosen when the extension answers
// (src/db/walkSelection.ts); docs/walk-extension.md, "Writes".
CALL graphauthz.createTuples($env, $items, $objectTypes, $nowIso, $nowMs)
YIELD written, renewed, edgesCreated, id, created_at, tenant
RETURN written, renewed, edgesCreated, id, created_at, tenant
