// @row { users: string[] }
// The users whose access can pass through the group $group (an impact preview's candidates,
// docs/console.md): those holding a role (a membership or any other) on it, or on a group or
// instance from which it is reached through relationship tuples and resource groups (the walk's
// steps, subject -> object), within 100 hops (the largest MAX_DERIVATION_DEPTH). Expired edges are
// followed too: a candidate more is harmless, the engine decides.
OPTIONAL MATCH (g:Group {env: $env, key: $group})
CALL (g) {
  MATCH (u:User {env: $env})-[:HAS_ROLE]->(s:InEnv {env: $env})-[:RELATED|GROUPS*0..100]->(g)
  RETURN collect(DISTINCT u.key) AS users
}
RETURN users
