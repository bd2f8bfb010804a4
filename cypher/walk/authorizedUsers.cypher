// @row { tenant: string; assignments: { user: string; tenant: string; resource: string; role: string }[] }
// cypher/decisions/authorizedUsers.cypher answered by the walk extension (graphauthz.authorizedUsers,
// neo4j/extension): the same parameters, the same row.
CALL graphauthz.authorizedUsers($env, $action, $type, $key, $tenant, $depth, $defaultTenant, $nowMs)
  YIELD tenant, assignments
RETURN tenant, assignments
