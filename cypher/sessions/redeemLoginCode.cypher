// @invalidates none
// @changes session:create audit
// @row { session: SessionNode }
// Uses up a login code and opens a session for its user (only the digest of the new token is
// stored), expiring with the session of the login step and ended with it (same `login`). Writing
// to the code first takes its lock: of two concurrent redemptions the second waits, then sees
// `used_at` and opens nothing.
MATCH (c:LoginCode {hash: $codeHash})
WHERE c.env = $env
SET c.redeeming = true
WITH c
WHERE c.used_at IS NULL AND c.expires_at > $nowIso
SET c.used_at = $nowIso
CREATE (s:Session:InEnv {env: c.env, id: $id, hash: $hash, user: c.user, tenant: c.tenant, login: c.login,
                         created_at: $nowIso, expires_at: c.session_expires_at})
RETURN s {.id, .env, .user, .tenant, .created_at, .expires_at} AS session
