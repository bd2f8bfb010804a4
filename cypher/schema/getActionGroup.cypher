// @row { group: ActionGroupNode }
// One action group of resource $resource (a key) by the reference rule (key, else id).
MATCH (r:Resource {env: $env, key: $resource})
OPTIONAL MATCH (byKey:ActionGroup {env: $env, resource: r.key, key: $ref})
OPTIONAL MATCH (byId:ActionGroup {id: $ref}) WHERE byId.env = $env AND byId.resource = r.key
// #include fragments/keyElseId
WITH r, referenced AS g WHERE g IS NOT NULL
RETURN g {.*, resource_id: r.id} AS group
