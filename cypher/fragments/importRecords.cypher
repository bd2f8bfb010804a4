// The records of one batch of an import (import/createNodes, createNodesExt): CREATE, no MERGE (the
// environment was empty, and a key repeated in the stream fails on its label's unique constraint).
// In: `$env`, `$rows` {labels, props}. Out: `created`, the records created.
UNWIND $rows AS row
CREATE (n:$(row.labels))
SET n = row.props, n.env = $env
WITH count(n) AS created
