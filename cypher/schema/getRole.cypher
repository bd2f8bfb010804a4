// @row { role: RoleNode }
// A tenant role by the reference rule (key, else id).
OPTIONAL MATCH (byKey:Role {env: $env, key: $ref})
OPTIONAL MATCH (byId:Role {env: $env}) WHERE byId.id = $ref
// #include fragments/keyElseId
WITH referenced AS t WHERE t IS NOT NULL
RETURN t {.*} AS role
