// @row {
//   key: { id: string; hash: string; access_level?: 'read' | 'write' | null; env_id: string; project_id: string } | null;
//   project: { id: string; key: string; org_id: string } | null;
//   environment: { id: string; key: string; revision?: number; importing?: boolean } | null;
// }
// The key (by digest) with its project and environment, and the environment's revision
// (read-your-revoke for the request's questions, no second read), and whether an import is
// filling it (cypher/import/begin.cypher: then only the import is served).
MATCH (k:ApiKey {hash: $hash})
OPTIONAL MATCH (p:Project {id: k.project_id})-[:HAS_ENV]->(e:Environment {id: k.env_id})
RETURN k {.id, .hash, .access_level, .env_id, .project_id} AS key,
       p {.id, .key, .org_id} AS project,
       e {.id, .key, revision: coalesce(e.revision, 0), importing: e.import_id IS NOT NULL} AS environment
