// @invalidates none
// A batch of one environment's sampled decisions (the decision log) as one node of parallel lists:
// one record per batch instead of one node per decision keeps the log's cost per check small.
// Lists hold no nulls: an absent resource key or tenant is ''.
CREATE (:DecisionLogBatch:InEnv {env: $env, first_at: $first_at, at: $last_at, ids: $ids, ats: $ats, users: $users,
                                 actions: $actions, types: $types, keys: $keys, tenants: $tenants,
                                 decisions: $decisions, reasons: $reasons})
