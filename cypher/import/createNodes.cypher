// @invalidates none
// @changes none
// @row { refs: string[][] }
// One batch of import $importId: the records $rows {labels, props} created in environment $env
// (CREATE, no MERGE: the environment was empty, and a key repeated in the stream fails on its
// label's unique constraint). Nothing when the import is no longer the environment's (abandoned
// and taken over): the caller then stops. Renews the import's lease. Answers [id, element id] of each
// record created, which the links of the same import use to find their ends (createLinksByRef).
MATCH (e:Environment {id: $env}) WHERE e.import_id = $importId
SET e.import_lease_until = $leaseUntil
WITH e
UNWIND $rows AS row
CREATE (n:$(row.labels))
SET n = row.props, n.env = $env
RETURN collect([n.id, elementId(n)]) AS refs
