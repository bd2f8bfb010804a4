// @row { idx: number; allow: boolean; validUntil: number | null; depthLimited: boolean;
//   explanation: { user_found: boolean; tenant: string; granting_roles: string[]; tenant_role_grant: boolean;
//                  searched: boolean; states_visited: number; paths: string[] } | null;
//   stored: { user: { key: string; email: string | null; attributes_json: string | null; tenant_roles: { tenant: string; role: string }[] } | null;
//             instance: { type: string; key: string; tenant: string; attributes_json: string | null } | null } | null;
//   revision: number | null }
// cypher/decisions/allowed.cypher answered by the walk extension (graphauthz.allowed,
// neo4j/extension): the same parameters, the same rows; `revision` as there, read by this statement.
CALL graphauthz.allowed($env, $checks, $depth, $defaultTenant, $explain, $nowMs)
  YIELD idx, allow, validUntil, depthLimited, explanation, stored
RETURN idx, allow, validUntil, depthLimited, explanation, stored,
       head(COLLECT { MATCH (environment:Environment {id: $env}) RETURN coalesce(environment.revision, 0) }) AS revision
ORDER BY idx
