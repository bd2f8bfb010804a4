// The project/environment of a path, by id or key.
MATCH (p:Project)-[:HAS_ENV]->(e:Environment)
WHERE (p.id = $proj OR p.key = $proj) AND (e.id = $env OR e.key = $env)
RETURN p {.id, .key, .org_id} AS project, e {.id, .key} AS environment
LIMIT 1
