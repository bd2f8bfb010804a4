CALL {
  MATCH (c:ElementsConfig {env: $env, key: $ref}) RETURN c
  UNION
  MATCH (c:ElementsConfig {id: $ref}) WHERE c.env = $env RETURN c
}
RETURN c {.*} AS config
LIMIT 1
