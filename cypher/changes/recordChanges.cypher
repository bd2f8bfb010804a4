// @invalidates none
// @changes none
// @row none
// Records a write transaction's change events, in that transaction, at the revision it moved
// the environment to: a committed write always has its events, a rolled-back one never does.
// One ChangeSet node per (environment, revision) holds them all as parallel lists in `seq` order
// (index i is event i): `n` events, their `ops`, `kinds`, `keys`, `befores`, `afters` (JSON
// strings, '' when absent: lists hold no nulls). Not InEnv: nothing reads it as a graph record.
CREATE (:ChangeSet {env: $env, revision: $revision, at: $at, actor_kind: $actor_kind, actor_id: $actor_id,
                    n: size($ops), ops: $ops, kinds: $kinds, keys: $keys, befores: $befores, afters: $afters})
