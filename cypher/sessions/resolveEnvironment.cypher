// @row { project: { id: string; key: string; org_id: string | null } | null; environment: { id: string; key: string } | null }
// The project/environment of a path, each by the reference rule (key, else id).
OPTIONAL MATCH (byKey:Project {key: $proj})
OPTIONAL MATCH (byId:Project {id: $proj})
// #include fragments/keyElseId
WITH referenced AS p
OPTIONAL MATCH (p)-[:HAS_ENV]->(byKey:Environment {key: $env})
OPTIONAL MATCH (p)-[:HAS_ENV]->(byId:Environment {id: $env})
// #include fragments/keyElseId
WITH p, referenced AS e
WHERE e IS NOT NULL
RETURN p {.id, .key, .org_id} AS project, e {.id, .key} AS environment
