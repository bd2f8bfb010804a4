// @invalidates none
// @changes login_code:create audit
// @row { expires_at: string }
// The one-time code of a login step (only its digest), valid until $expires_at and for one use;
// codes of the environment that can no longer be used are dropped here.
CALL () {
  MATCH (old:LoginCode {env: $env}) WHERE old.expires_at < $nowIso OR old.used_at IS NOT NULL
  DETACH DELETE old
}
CREATE (c:LoginCode:InEnv {env: $env, hash: $hash, user: $user, tenant: $tenant, login: $login, created_at: $nowIso,
                           expires_at: $expires_at, session_expires_at: $session_expires_at})
RETURN c.expires_at AS expires_at
