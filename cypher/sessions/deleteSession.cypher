// @invalidates none
// @changes session:delete audit
// @row { deleted: number }
// Logout: ends the session and every other session of the same login step (the token given to
// the backend and the cookie its one-time code opened in a browser), and drops that login's code
// if it was not used yet. A session from before `login` was recorded ends alone.
MATCH (s:Session {id: $id})
WHERE s.env = $env
WITH coalesce(s.login, s.id) AS login, s.user AS user
CALL (login) {
  MATCH (c:LoginCode {env: $env})
  WHERE c.login = login
  DETACH DELETE c
}
MATCH (x:Session {env: $env, user: user})
WHERE coalesce(x.login, x.id) = login
DETACH DELETE x
RETURN count(*) AS deleted
