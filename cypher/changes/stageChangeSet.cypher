// @invalidates none
// @changes none
// @row { staged: string }
// A large change set written before the environment's lock is taken (src/areas/changes/store.ts):
// the ChangeSet node of cypher/changes/recordAtNextRevision.cypher, with every event, but no
// revision yet; cypher/changes/recordStagedAtNextRevision.cypher then takes the lock, moves the
// revision and gives it to this node, in the same transaction, as its last statement. Writing a
// bulk's events (a list of each event's fields) took a third of the time the lock was held. Nothing
// reads a ChangeSet without a revision, and no other transaction sees this one before its commit.
// An environment that does not exist stages nothing (no row).
MATCH (e:Environment {id: $env})
CREATE (cs:ChangeSet {env: $env, at: $at, actor_kind: $actor_kind, actor_id: $actor_id,
                      n: size($ops), ops: $ops, kinds: $kinds, keys: $keys, befores: $befores, afters: $afters})
RETURN elementId(cs) AS staged
