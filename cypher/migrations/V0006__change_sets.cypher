// Change sets: a write transaction's change events are one (:ChangeSet) node per (environment,
// revision), its events as parallel lists in `seq` order (cypher/changes/recordChanges.cypher),
// instead of one (:Change:InEnv) node per event. The feed reads an environment's sets in revision order.
CREATE INDEX change_set_env_revision IF NOT EXISTS FOR (s:ChangeSet) ON (s.env, s.revision);
// The Change nodes written before: each revision's become one ChangeSet (ordered by seq; an absent
// before/after is '', as lists hold no null) and are deleted in the same transaction, so a run cut
// short leaves every revision either converted or not, and running it again converts the rest.
// A revision's Change nodes are locked (SET) and then read again: a second replica converting the
// same revision at the same moment waits for the first and then reads none (a node deleted while
// it waited is gone from the second read), so no set is written twice nor from half a revision.
MATCH (c:Change)
WITH DISTINCT c.env AS env, c.revision AS revision
CALL {
  WITH env, revision
  MATCH (c:Change {env: env, revision: revision})
  SET c.converting = true
  WITH env, revision, count(c) AS locked
  MATCH (c:Change {env: env, revision: revision})
  WITH c ORDER BY c.seq
  WITH collect(c) AS cs
  WHERE size(cs) > 0
  CREATE (:ChangeSet {env: cs[0].env, revision: cs[0].revision, at: cs[0].at,
                      actor_kind: cs[0].actor_kind, actor_id: cs[0].actor_id, n: size(cs),
                      ops: [c IN cs | coalesce(c.op, '')], kinds: [c IN cs | coalesce(c.kind, '')],
                      keys: [c IN cs | coalesce(c.key, '')],
                      befores: [c IN cs | coalesce(c.before, '')], afters: [c IN cs | coalesce(c.after, '')]})
  FOREACH (c IN cs | DETACH DELETE c)
} IN TRANSACTIONS OF 100 ROWS;
// The feed no longer reads Change nodes.
DROP INDEX change_env_revision IF EXISTS;
