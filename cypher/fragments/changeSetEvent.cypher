// One change event of a ChangeSet (a revision's events as parallel lists in `seq` order, see
// cypher/changes/recordChanges.cypher), in the shape the Change nodes had: before/after are the
// JSON strings, null when absent (stored as '': lists hold no nulls).
// In: `s`, a ChangeSet node or (better: its lists read once) a map of its properties, and `seq`,
// the index of the event.
// Out: `event`, a map {revision, seq, at, actor_kind, actor_id, op, kind, key, before, after}.
WITH *, {revision: s.revision, seq: seq, at: s.at, actor_kind: s.actor_kind, actor_id: s.actor_id,
         op: s.ops[seq], kind: s.kinds[seq], key: s.keys[seq],
         before: CASE s.befores[seq] WHEN '' THEN null ELSE s.befores[seq] END,
         after: CASE s.afters[seq] WHEN '' THEN null ELSE s.afters[seq] END} AS event
