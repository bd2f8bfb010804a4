// A user by key, else by id.
OPTIONAL MATCH (byKey:User {env: $env, key: $ref})
OPTIONAL MATCH (byId:User {id: $ref}) WHERE byId.env = $env
WITH coalesce(byKey, byId) AS u
WHERE u IS NOT NULL
RETURN u.key AS key
