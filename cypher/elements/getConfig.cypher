// @row { config: ElementsConfigNode }
// An elements config by the reference rule (key, else id).
OPTIONAL MATCH (byKey:ElementsConfig {env: $env, key: $ref})
OPTIONAL MATCH (byId:ElementsConfig {id: $ref}) WHERE byId.env = $env
// #include fragments/keyElseId
WITH referenced AS c WHERE c IS NOT NULL
RETURN c {.*} AS config
