// @row { resource: { id: string; key: string; attributes_json: string | null } | null }
// A resource's declared attributes (its `attributes` map) by the reference rule (key, else id).
OPTIONAL MATCH (byKey:Resource {env: $env, key: $ref})
OPTIONAL MATCH (byId:Resource {id: $ref}) WHERE byId.env = $env
// #include fragments/keyElseId
RETURN CASE WHEN referenced IS NULL THEN null ELSE referenced {.id, .key, .attributes_json} END AS resource
