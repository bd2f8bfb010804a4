// @invalidates none
// Records a write transaction's change events, in that transaction, at the revision it moved
// the environment to: a committed write always has its events, a rolled-back one never does.
UNWIND $changes AS c
CREATE (:Change:InEnv {env: $env, revision: $revision, seq: c.seq, at: $at,
                       actor_kind: c.actor_kind, actor_id: c.actor_id, op: c.op, kind: c.kind, key: c.key,
                       before: c.before, after: c.after})
