// @row { role: RoleNode }
// Every role `role` extends, directly or through others (whose permissions it has), each once.
MATCH (r:Role|ResourceRole {env: $env, key: $role})
WHERE ($resource IS NULL AND r:Role) OR (r:ResourceRole AND r.resource = $resource)
MATCH (r)-[:EXTENDS*1..]->(a)
WITH DISTINCT a WHERE a.env = $env
RETURN a {.*} AS role ORDER BY a.key
