// @invalidates none
// Opens a session (only the digest of its token is stored) and drops the user's expired ones.
CALL () {
  MATCH (old:Session {env: $env, user: $user}) WHERE old.expires_at < $now
  DETACH DELETE old
}
CREATE (s:Session:InEnv {env: $env, id: $id, hash: $hash, user: $user, tenant: $tenant,
                         created_at: $now, expires_at: $expires_at})
RETURN s {.id, .env, .user, .tenant, .created_at, .expires_at} AS session
