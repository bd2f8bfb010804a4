// The audit log of an environment: security-relevant change events ($kinds: schema, elements,
// approvals) and the key and session events, newest first, filtered, one page and the total.
CALL {
  MATCH (c:Change {env: $env}) WHERE c.kind IN $kinds RETURN c AS e
  UNION ALL
  MATCH (a:AuditEvent {env: $env}) RETURN a AS e
}
WITH e
WHERE ($actor IS NULL OR e.actor_id = $actor OR e.actor_kind + ':' + e.actor_id = $actor)
  AND ($kind IS NULL OR e.kind = $kind)
  AND ($from IS NULL OR e.at >= $from)
  AND ($to IS NULL OR e.at <= $to)
WITH e ORDER BY e.at DESC, coalesce(e.revision, -1) DESC, e.seq DESC
WITH collect(e {.revision, .at, .actor_kind, .actor_id, .op, .kind, .key, .before, .after}) AS found
RETURN size(found) AS total, found[$skip..$skip + $limit] AS page
