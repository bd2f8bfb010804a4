// A tenant by key, else by id.
OPTIONAL MATCH (byKey:Tenant {env: $env, key: $ref})
OPTIONAL MATCH (byId:Tenant {id: $ref}) WHERE byId.env = $env
WITH coalesce(byKey, byId) AS t
WHERE t IS NOT NULL
RETURN t.key AS key
