// @invalidates none
// A batch of one environment's sampled decisions (the decision log) as one node: its time span,
// its count and its entries packed by the service (gzip'd JSON, base64; src/areas/decisionLog/log.ts).
// One short string a batch keeps the log's cost per check small.
CREATE (:DecisionLogBatch:InEnv {env: $env, id: $id, n: $n, first_at: $first_at, at: $last_at, data: $data})
