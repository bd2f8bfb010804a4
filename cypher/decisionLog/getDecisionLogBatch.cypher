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
// The batch of environment $env that holds decision-log entry $logId: a packed batch by its id
// ($batchId, the entry's id without its "-<index>"), or a batch written before packing that lists
// the entry's id. (`at IS NOT NULL`, always true, seeks the (env, at) index.)
MATCH (b:DecisionLogBatch {env: $env})
WHERE b.at IS NOT NULL AND (b.id = $batchId OR $logId IN coalesce(b.ids, []))
RETURN b {.id, .data, .ids, .ats, .users, .actions, .types, .keys, .tenants, .decisions, .reasons} AS batch
