// @invalidates none
// @changes none
// @row none
// The sampled decisions (the decision log) of one flush, in one transaction: each of $batches is
// one environment's entries as one node: its time span, its count and its entries packed by the
// service (gzip'd JSON, base64; src/areas/decisionLog/log.ts). One short string a batch and one
// transaction a flush keep the log's cost per check small.
UNWIND $batches AS b
CREATE (:DecisionLogBatch:InEnv {env: b.env, id: b.id, n: b.n, first_at: b.first_at, at: b.last_at, data: b.data})
