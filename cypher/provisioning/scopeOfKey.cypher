MATCH (k:ApiKey {hash: $hash})
OPTIONAL MATCH (p:Project {id: k.project_id})-[:HAS_ENV]->(e:Environment {id: k.env_id})
RETURN k {.id, .hash, .access_level, .env_id, .project_id} AS key,
       p {.id, .key, .org_id} AS project,
       e {.id, .key} AS environment
