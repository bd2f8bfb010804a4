// The ON MATCH of a grant's MERGE (role assignments, tuples), and the count of what it renewed.
// In scope: `r`, the grant edge being MERGEd, and `expiresAt`, the end the grant is given now
// (epoch ms, null: never); $nowIso (ISO 8601) and $nowMs (epoch ms) the instant. An edge past its
// expires_at grants nothing and is gone for the API (docs/behaviour.md section 11), though the sweep may
// not have deleted it yet: matched, it is made again, as new (id, created_at, expires_at); an edge
// without an id (written by a replica of 91c0a63 during an upgrade) gets one. Binds
// `renewed`, true for such an edge (MERGE's count of created relationships leaves it out).
  ON MATCH SET r._renewed = CASE WHEN r.expires_at <= $nowMs THEN true END,
               r.id = CASE WHEN r.expires_at <= $nowMs OR r.id IS NULL THEN randomUUID() ELSE r.id END,
               r.created_at = CASE WHEN r.expires_at <= $nowMs THEN $nowIso ELSE r.created_at END,
               r.expires_at = CASE WHEN r.expires_at <= $nowMs THEN expiresAt ELSE r.expires_at END
WITH *, r._renewed IS NOT NULL AS renewed
FOREACH (_ IN CASE WHEN renewed THEN [1] ELSE [] END | REMOVE r._renewed)
