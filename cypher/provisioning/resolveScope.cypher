// One round trip for authentication and scope: the key (by digest) and the path's project/env.
OPTIONAL MATCH (k:ApiKey {hash: $hash})
OPTIONAL MATCH (p:Project) WHERE p.id = $proj OR p.key = $proj
OPTIONAL MATCH (p)-[:HAS_ENV]->(e:Environment) WHERE e.id = $env OR e.key = $env
RETURN k {.id, .hash, .env_id, .project_id} AS key,
       p {.id, .key, .org_id} AS project,
       e {.id, .key} AS environment
