// @row { config: ProxyConfigNode }
// A proxy config of environment $env by the reference rule (key, else id).
OPTIONAL MATCH (byKey:ProxyConfig {env: $env, key: $ref})
OPTIONAL MATCH (byId:ProxyConfig {id: $ref}) WHERE byId.env = $env
// #include fragments/keyElseId
WITH referenced AS c WHERE c IS NOT NULL
RETURN c {.*} AS config
