// @row {
//   key: { id: string; hash: string; access_level?: 'read' | 'write' | null; env_id: string; project_id: string } | null;
//   project: { id: string; key: string; org_id: string } | null;
//   environment: { id: string; key: string; revision?: number; importing?: boolean } | null;
// }
// One round trip for authentication and scope: the key (by digest) and the path's project/env,
// with the environment's revision (read-your-revoke for the request's questions, no second read).
OPTIONAL MATCH (k:ApiKey {hash: $hash})
OPTIONAL MATCH (byKey:Project {key: $proj})
OPTIONAL MATCH (byId:Project {id: $proj})
// #include fragments/keyElseId
WITH k, referenced AS p
OPTIONAL MATCH (p)-[:HAS_ENV]->(byKey:Environment {key: $env})
OPTIONAL MATCH (p)-[:HAS_ENV]->(byId:Environment {id: $env})
// #include fragments/keyElseId
WITH k, p, referenced AS e
RETURN k {.id, .hash, .access_level, .env_id, .project_id} AS key,
       p {.id, .key, .org_id} AS project,
       e {.id, .key, revision: coalesce(e.revision, 0), importing: e.import_id IS NOT NULL} AS environment
