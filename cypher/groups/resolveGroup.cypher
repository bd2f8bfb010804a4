// A group by key, else by id.
OPTIONAL MATCH (byKey:Group {env: $env, key: $ref})
OPTIONAL MATCH (byId:Instance {id: $ref}) WHERE byId:Group AND byId.env = $env
WITH coalesce(byKey, byId) AS g
WHERE g IS NOT NULL
RETURN g.key AS key, g.resource AS type, g.tenant AS tenant
