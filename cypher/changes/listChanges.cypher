// A page of an environment's change events after $after, whole revisions only (a transaction's
// events are never split across pages): as many revisions as fit in $pageSize events, at least one.
MATCH (c:Change {env: $env}) WHERE c.revision > $after
WITH c.revision AS revision, count(*) AS n
ORDER BY revision
LIMIT $pageSize
WITH collect({revision: revision, n: n}) AS revs
WITH [i IN range(0, size(revs) - 1)
      WHERE i = 0 OR reduce(total = 0, r IN revs[0..i + 1] | total + r.n) <= $pageSize | revs[i].revision] AS take
UNWIND take AS revision
MATCH (c:Change {env: $env, revision: revision})
RETURN c {.revision, .seq, .at, .actor_kind, .actor_id, .op, .kind, .key, .before, .after} AS change
ORDER BY c.revision, c.seq
