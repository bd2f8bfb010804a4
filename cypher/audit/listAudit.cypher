// @row {
//   total: number;
//   page: {
//     /** Null for a key or session event (it moves no revision). */
//     revision: number | null;
//     at: string;
//     actor_kind: string;
//     actor_id: string;
//     op: string;
//     kind: string;
//     key: string;
//     /** JSON text; null when absent. */
//     before: string | null;
//     after: string | null;
//   }[];
// }
// The audit log of an environment: security-relevant change events ($kinds: schema, elements,
// approvals) and the key and session events, newest first, filtered, one page and the total.
// Change events are read from the environment's ChangeSet nodes (one per revision, events as
// parallel lists in `seq` order, '' for an absent before/after); the filters that hold for a
// whole revision (actor, time) and a first look at its kinds are applied before its events are unwound.
// A revision written through the admin console (actor $consoleKind:$consoleId, docs/console.md) is
// audited whole, whatever its kinds: the admin's own changes to facts (users, memberships, role
// assignments ...) are in the audit log; the same kinds written by keys and SDKs are in the feed only.
CALL () {
  MATCH (node:ChangeSet {env: $env})
  WHERE ($actor IS NULL OR node.actor_id = $actor OR node.actor_kind + ':' + node.actor_id = $actor)
    AND ($from IS NULL OR node.at >= $from)
    AND ($to IS NULL OR node.at <= $to)
  // The lists are read once per revision, not once per event.
  WITH node {.revision, .n, .at, .actor_kind, .actor_id, .ops, .kinds, .keys, .befores, .afters} AS s
  WITH s, (s.actor_kind = $consoleKind AND s.actor_id = $consoleId) AS byConsole
  WHERE ($kind IS NULL OR $kind IN s.kinds) AND (byConsole OR any(k IN s.kinds WHERE k IN $kinds))
  UNWIND range(0, s.n - 1) AS seq
  WITH s, seq WHERE byConsole OR s.kinds[seq] IN $kinds
  // #include fragments/changeSetEvent
  RETURN event AS e
  UNION ALL
  MATCH (a:AuditEvent {env: $env}) RETURN a {.revision, .seq, .at, .actor_kind, .actor_id, .op, .kind, .key, .before, .after} AS e
}
WITH e
WHERE ($actor IS NULL OR e.actor_id = $actor OR e.actor_kind + ':' + e.actor_id = $actor)
  AND ($kind IS NULL OR e.kind = $kind)
  AND ($from IS NULL OR e.at >= $from)
  AND ($to IS NULL OR e.at <= $to)
WITH e ORDER BY e.at DESC, coalesce(e.revision, -1) DESC, e.seq DESC
WITH collect(e {.revision, .at, .actor_kind, .actor_id, .op, .kind, .key, .before, .after}) AS found
RETURN size(found) AS total, found[$skip..$skip + $limit] AS page
