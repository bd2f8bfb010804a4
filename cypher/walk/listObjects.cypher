// @row { page: string; tenants: string[]; validUntil: number | null; revision: number | null }
// cypher/decisions/listObjects.cypher answered by the walk extension (graphauthz.listObjects,
// neo4j/extension): the same parameters and the same page, packed into one string (`page`: for each
// object in key order, its tenant's index in `tenants`, `:`, then its key as `<length>:<key>`, or `~`;
// src/areas/decisions/packedPage.ts reads it); `revision` read by the procedure in this statement's
// transaction before it walks.
CALL graphauthz.listObjects($env, $user, $action, $type, $tenant, $after, $limit, $depth, $nowMs)
  YIELD page, tenants, validUntil, revision
RETURN page, tenants, validUntil, revision
