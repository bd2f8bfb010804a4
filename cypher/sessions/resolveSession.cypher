// One round trip per session-authenticated request: the session (by token digest), whether its
// user still belongs to its tenant, the path's project/environment (the session's own when the
// path names none) and the path's elements config (by id or key).
OPTIONAL MATCH (s:Session {hash: $hash})
WITH s
OPTIONAL MATCH (p:Project)-[:HAS_ENV]->(e:Environment)
  WHERE CASE WHEN $proj IS NULL THEN e.id = s.env
             ELSE (p.id = $proj OR p.key = $proj) AND (e.id = $env OR e.key = $env) END
WITH s, p, e LIMIT 1
OPTIONAL MATCH (c:ElementsConfig {env: e.id})
  WHERE $config IS NOT NULL AND (c.id = $config OR c.key = $config)
WITH s, p, e, c LIMIT 1
RETURN s {.id, .env, .user, .tenant, .expires_at} AS session,
       s IS NOT NULL AND EXISTS {
         MATCH (:User {env: s.env, key: s.user})-[:IN_TENANT]->(:Tenant {env: s.env, key: s.tenant})
       } AS member,
       p {.id, .key, .org_id} AS project, e {.id, .key} AS environment, c {.id, .key} AS config
