CALL {
  MATCH (t:Role {env: $env, key: $ref}) RETURN t
  UNION
  MATCH (t:Role {env: $env}) WHERE t.id = $ref RETURN t
}
RETURN t {.*} AS role
LIMIT 1
