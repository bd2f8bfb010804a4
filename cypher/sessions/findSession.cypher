MATCH (s:Session {hash: $hash})
RETURN s {.id, .env, .user, .tenant, .expires_at} AS session
