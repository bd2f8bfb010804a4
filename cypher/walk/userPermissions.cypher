// @row {
//   instances: { key: string; tenant: string; type: string; resource_key: string; roles: string[]; permissions: string[] }[];
//   tenants: { key: string; tenant: string; roles: string[]; permissions: string[] }[];
// }
// cypher/decisions/userPermissions.cypher answered by the walk extension (graphauthz.userPermissions,
// neo4j/extension): the same parameters, the same row (its instances in the order the walk reached them).
CALL graphauthz.userPermissions($env, $user, $tenants, $types, $depth, $nowMs)
  YIELD instances, tenants
RETURN instances, tenants
