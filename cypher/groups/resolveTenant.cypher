// @row { key: string }
// A tenant by the reference rule (key, else id).
OPTIONAL MATCH (byKey:Tenant {env: $env, key: $ref})
OPTIONAL MATCH (byId:Tenant {id: $ref}) WHERE byId.env = $env
// #include fragments/keyElseId
WITH referenced AS t WHERE t IS NOT NULL
RETURN t.key AS key
