// @invalidates none
// @changes none
// @row { revision: number }
// The last statement of a write transaction that changes records of the feed: moves environment
// $env's revision (as revisions/bumpRevision does, taking the environment's write lock, held until
// the commit) and records the transaction's change events at that revision, in one statement. A
// committed write always has its events, a rolled-back one never does. Writes to one environment
// commit one at a time behind that lock, so it is taken last and held for this one round trip and
// the commit only (a bump, then a second statement for the events, held it for two).
// One ChangeSet node per (environment, revision) holds them all as parallel lists in `seq` order
// (index i is event i): `n` events, their `ops`, `kinds`, `keys`, `befores`, `afters` (JSON
// strings, '' when absent: lists hold no nulls). Not InEnv: nothing reads it as a graph record.
// An environment that no longer exists moves no revision and records nothing (no row).
MATCH (e:Environment {id: $env})
SET e.revision = coalesce(e.revision, 0) + 1
WITH e.revision AS revision
CREATE (:ChangeSet {env: $env, revision: revision, at: $at, actor_kind: $actor_kind, actor_id: $actor_id,
                    n: size($ops), ops: $ops, kinds: $kinds, keys: $keys, befores: $befores, afters: $afters})
RETURN revision
