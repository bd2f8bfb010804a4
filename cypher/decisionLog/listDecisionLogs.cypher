// @row {
//   /** Packed (`data`: gzip'd JSON, base64), or the parallel lists of a batch written before packing (the others null). */
//   batch: {
//     id: string | null;
//     data: string | null;
//     ids: string[] | null;
//     ats: string[] | null;
//     users: string[] | null;
//     actions: string[] | null;
//     types: string[] | null;
//     keys: string[] | null;
//     tenants: string[] | null;
//     decisions: boolean[] | null;
//     reasons: string[] | null;
//   };
// }
// The decision-log batches of an environment whose time span meets [$from, $to] (ISO instants,
// nullable); the reader unpacks, filters and pages their entries (src/areas/decisionLog/routes.ts).
// A batch written before packing holds parallel lists (ids, ats, users, ...) instead of `data`.
MATCH (b:DecisionLogBatch {env: $env})
WHERE ($from IS NULL OR b.at >= $from) AND ($to IS NULL OR b.first_at <= $to)
RETURN b {.id, .data, .ids, .ats, .users, .actions, .types, .keys, .tenants, .decisions, .reasons} AS batch
