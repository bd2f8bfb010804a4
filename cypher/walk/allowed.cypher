// @row { idx: number; allow: boolean; validUntil: number | null; depthLimited: boolean;
//   explanation: { user_found: boolean; tenant: string; granting_roles: string[]; tenant_role_grant: boolean;
//                  searched: boolean; states_visited: number; paths: string[] } | null;
//   stored: { user: { key: string; email: string | null; attributes_json: string | null; tenant_roles: { tenant: string; role: string }[] } | null;
//             instance: { type: string; key: string; tenant: string; attributes_json: string | null } | null } | null;
//   revision: number | null }
// cypher/decisions/allowed.cypher answered by the walk extension (graphauthz.allowed,
// neo4j/extension): the same parameters but $checks packed into one string (the service's
// src/areas/decisions/packedChecks.ts; a list of maps is taken too), the same rows, in the order of $checks; `revision` as
// there, read by the procedure in this statement's transaction before it walks. A CALL alone: no
// operator of Cypher's around it (a subquery a row for the revision and a sort were about a tenth
// of Neo4j's CPU under uncached checks, docs/benchmarks.md "Where an uncached check's Neo4j CPU goes").
CALL graphauthz.allowed($env, $checks, $depth, $defaultTenant, $explain, $nowMs)
