// @invalidates none
// @changes none
// @row { created: number }
// One batch of import $importId: the records $rows {labels, props} created in environment $env
// (CREATE, no MERGE: the environment was empty, and a key repeated in the stream fails on its
// label's unique constraint). Nothing when the import is no longer the environment's (abandoned
// and taken over): the caller then stops. Renews the import's lease.
// #include fragments/importLease
WITH e
UNWIND $rows AS row
CREATE (n:$(row.labels))
SET n = row.props, n.env = $env
WITH count(n) AS created
RETURN created
