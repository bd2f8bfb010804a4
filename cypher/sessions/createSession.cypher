// @invalidates none
// @changes session:create audit
// @row { session: SessionNode }
// Opens the session of a login step (only the digest of its token is stored; `login` names the
// login step, whose sessions a logout ends together) and drops the user's expired ones.
CALL () {
  MATCH (old:Session {env: $env, user: $user}) WHERE old.expires_at < $nowIso
  DETACH DELETE old
}
CREATE (s:Session:InEnv {env: $env, id: $id, hash: $hash, user: $user, tenant: $tenant, login: $id,
                         created_at: $nowIso, expires_at: $expires_at})
RETURN s {.id, .env, .user, .tenant, .created_at, .expires_at} AS session
