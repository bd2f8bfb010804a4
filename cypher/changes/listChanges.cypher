// @row {
//   change: {
//     revision: number;
//     seq: number;
//     at: string;
//     actor_kind: string;
//     actor_id: string;
//     op: string;
//     kind: string;
//     key: string;
//     /** JSON text; null when absent. */
//     before: string | null;
//     after: string | null;
//   };
// }
// A page of an environment's change events after $after, whole revisions only (a transaction's
// events are never split across pages): as many revisions as fit in $pageSize events, at least one.
// Each revision is one ChangeSet node whose parallel lists hold its events in `seq` order; an
// absent before/after is stored as '' and answered as null.
MATCH (s:ChangeSet {env: $env}) WHERE s.revision > $after
WITH s ORDER BY s.revision
LIMIT $pageSize
WITH collect(s) AS sets, collect(s.n) AS ns
WITH [i IN range(0, size(sets) - 1)
      WHERE i = 0 OR reduce(total = 0, n IN ns[0..i + 1] | total + n) <= $pageSize | sets[i]] AS take
UNWIND take AS node
// The lists are read once per revision, not once per event.
WITH node {.revision, .n, .at, .actor_kind, .actor_id, .ops, .kinds, .keys, .befores, .afters} AS s
UNWIND range(0, s.n - 1) AS seq
// #include fragments/changeSetEvent
RETURN event AS change
ORDER BY change.revision, change.seq
