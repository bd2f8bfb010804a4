// @invalidates none
// @changes none
// @row { invalid: string[] }
// The "<resource>:<action>" pairs of $pairs that name no action (nor action group) of an existing resource, read
// under the write lock of each resource named ($resources: distinct and sorted, so that two such
// checks take their locks in one order), held until the transaction ends: an action removed by a
// concurrent write (which drops it from every role's permissions) either commits first and is
// seen missing here, or waits for this transaction and then drops the permission written here.
CALL () {
  UNWIND $resources AS key
  MATCH (r:Resource {env: $env, key: key})
  SET r._lock = true
  REMOVE r._lock
}
UNWIND $pairs AS p
OPTIONAL MATCH (r:Resource {env: $env, key: p.resource})
WITH p, r
WHERE r IS NULL OR (NOT p.action IN coalesce(r.actions, [])
                   AND NOT EXISTS { MATCH (:ActionGroup {env: $env, resource: r.key, key: p.action}) })
RETURN collect(p.text) AS invalid
