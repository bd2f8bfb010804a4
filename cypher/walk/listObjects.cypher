// @row { objects: [type: string, key: string, tenant: string][]; validUntil: number | null }
// cypher/decisions/listObjects.cypher answered by the walk extension (graphauthz.listObjects,
// neo4j/extension): the same parameters, the same row.
CALL graphauthz.listObjects($env, $user, $action, $type, $tenant, $after, $limit, $depth, $nowMs)
  YIELD objects, validUntil
RETURN objects, validUntil
