// @row { key: string; type: string; tenant: string }
// A group by the reference rule (key, else id).
OPTIONAL MATCH (byKey:Group {env: $env, key: $ref})
OPTIONAL MATCH (byId:Instance {id: $ref}) WHERE byId:Group AND byId.env = $env
// #include fragments/keyElseId
WITH referenced AS g WHERE g IS NOT NULL
RETURN g.key AS key, g.resource AS type, g.tenant AS tenant
