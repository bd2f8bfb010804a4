// By key or id; a key wins over an id when one record's key is another's id.
OPTIONAL MATCH (byKey:Tenant {env: $env, key: $ref})
OPTIONAL MATCH (byId:Tenant {id: $ref}) WHERE byId.env = $env
WITH coalesce(byKey, byId) AS t
WHERE t IS NOT NULL
RETURN t {.*} AS tenant
