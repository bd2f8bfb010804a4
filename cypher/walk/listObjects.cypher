// @row { keys: string[]; tenants: string[]; tenantOf: number[]; validUntil: number | null; revision: number | null }
// cypher/decisions/listObjects.cypher answered by the walk extension (graphauthz.listObjects,
// neo4j/extension): the same parameters, the same row; `revision` read by the procedure in this
// statement's transaction before it walks.
CALL graphauthz.listObjects($env, $user, $action, $type, $tenant, $after, $limit, $depth, $nowMs)
  YIELD keys, tenants, tenantOf, validUntil, revision
RETURN keys, tenants, tenantOf, validUntil, revision
