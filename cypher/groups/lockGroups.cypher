// @invalidates none
// @changes none
// @row { locked: number }
// Serialises group-to-group assignments of one type: write locks on the type resource, then on
// the groups $keys (sorted by the caller), held until the transaction ends. The cycle check that
// follows therefore sees every assignment committed before it.
MATCH (type:Resource {env: $env, key: $type})
SET type._lock = true
REMOVE type._lock
WITH type
UNWIND $keys AS k
MATCH (g:Group {env: $env, key: k})
SET g._lock = true
REMOVE g._lock
RETURN count(g) AS locked
