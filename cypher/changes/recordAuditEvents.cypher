// @invalidates none
// @changes none
// @row none
// Security events that change no record of the graph API (keys created, rotated, revoked; logins
// and logouts), for the audit log, in the transaction that makes them. They move no revision.
UNWIND $events AS e
CREATE (:AuditEvent:InEnv {env: $env, seq: e.seq, at: $at, actor_kind: e.actor_kind, actor_id: e.actor_id,
                           op: e.op, kind: e.kind, key: e.key, before: e.before, after: e.after})
