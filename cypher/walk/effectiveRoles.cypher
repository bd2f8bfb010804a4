// @row { roles: { resource: string; tenant: string; role: string; path: string }[] }
// cypher/decisions/effectiveRoles.cypher answered by the walk extension (graphauthz.effectiveRoles,
// neo4j/extension): the same parameters, the same row.
CALL graphauthz.effectiveRoles($env, $user, $tenant, $depth, $nowMs)
  YIELD roles
RETURN roles
