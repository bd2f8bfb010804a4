// Rule step: expiry along a path. A state reached over `link.edge` holds until the earlier of its
// predecessor's `until` and the edge's `expires_at` (null: no end), so that an answer knows how
// long it holds (`validUntil`). An expression. Needs: state (with `until`), link (with `edge`).
CASE WHEN link.edge.expires_at IS NULL OR (state.until IS NOT NULL AND state.until < link.edge.expires_at)
     THEN state.until ELSE link.edge.expires_at END
