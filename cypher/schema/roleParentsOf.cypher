// @row { key: string; parents: string[] }
// The roles each of $keys directly extends (tenant roles when $resource is null, else roles of $resource).
UNWIND $keys AS key
MATCH (r:Role|ResourceRole {env: $env, key: key})
WHERE ($resource IS NULL AND r:Role) OR (r:ResourceRole AND r.resource = $resource)
RETURN r.key AS key, COLLECT { MATCH (r)-[:EXTENDS]->(p) RETURN p.key ORDER BY p.key } AS parents
