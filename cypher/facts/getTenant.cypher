CALL {
  MATCH (t:Tenant {env: $env, key: $ref}) RETURN t
  UNION
  MATCH (t:Tenant {id: $ref}) WHERE t.env = $env RETURN t
}
RETURN t {.*} AS tenant
LIMIT 1
