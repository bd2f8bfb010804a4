// @invalidates none
// @changes none
// @row { key: string }
// Takes the write lock on the resource $ref names (key, else id), held until the transaction
// ends: a read-modify-write of the resource (its action map, its roles' permissions) follows, and
// a concurrent one waits here for this one's commit, then reads what it wrote. Answers nothing
// when no such resource exists.
OPTIONAL MATCH (byKey:Resource {env: $env, key: $ref})
OPTIONAL MATCH (byId:Resource {id: $ref}) WHERE byId.env = $env
// #include fragments/keyElseId
WITH referenced AS r WHERE r IS NOT NULL
SET r._lock = true
REMOVE r._lock
RETURN r.key AS key
