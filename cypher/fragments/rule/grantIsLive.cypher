// Rule step: expiry. A grant edge (`grant`: HAS_ROLE, HAS_TENANT_ROLE, RELATED or GROUPS) whose
// `expires_at` (epoch ms; absent or null: never) is at or before $nowMs grants nothing from that
// instant, whether or not the sweep (expiry/deleteExpired) has deleted it yet.
// An expression (a predicate) on the edge bound as `grant`. Needs: $nowMs.
(grant.expires_at IS NULL OR grant.expires_at > $nowMs)
