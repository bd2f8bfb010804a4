// @row { key: string }
// A user by the reference rule (key, else id).
OPTIONAL MATCH (byKey:User {env: $env, key: $ref})
OPTIONAL MATCH (byId:User {id: $ref}) WHERE byId.env = $env
// #include fragments/keyElseId
WITH referenced AS u WHERE u IS NOT NULL
RETURN u.key AS key
