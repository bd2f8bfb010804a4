// @row { idx: number; allow: boolean; validUntil: number | null; depthLimited: boolean;
//   explanation: { user_found: boolean; tenant: string; granting_roles: string[]; tenant_role_grant: boolean;
//                  searched: boolean; states_visited: number; paths: string[] } | null }
// cypher/decisions/allowed.cypher answered by the walk extension (graphauthz.allowed,
// neo4j/extension): the same parameters, the same rows.
CALL graphauthz.allowed($env, $checks, $depth, $defaultTenant, $explain, $nowMs)
  YIELD idx, allow, validUntil, depthLimited, explanation
RETURN idx, allow, validUntil, depthLimited, explanation
ORDER BY idx
