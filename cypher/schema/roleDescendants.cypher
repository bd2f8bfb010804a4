// @row { role: RoleNode }
// Every role that extends `role`, directly or through others (and so has its permissions), each once.
MATCH (r:Role|ResourceRole {env: $env, key: $role})
WHERE ($resource IS NULL AND r:Role) OR (r:ResourceRole AND r.resource = $resource)
MATCH (d)-[:EXTENDS*1..]->(r)
WITH DISTINCT d WHERE d.env = $env
RETURN d {.*} AS role ORDER BY d.key
