// Ids of role assignments and relationship tuples (docs/behaviour.md section 14: Permit's SDKs parse a
// role assignment's and a tuple's `id` as a UUID). New grant edges get one when written
// (randomUUID() in their statements); the edges an earlier version wrote get one here, in
// batches, so that an upgraded graph answers like a new one. Running it again changes nothing.
MATCH (:User)-[r:HAS_ROLE|HAS_TENANT_ROLE]->() WHERE r.id IS NULL
CALL (r) { SET r.id = randomUUID() } IN TRANSACTIONS OF 10000 ROWS;
MATCH (:Instance)-[r:RELATED]->(:Instance) WHERE r.id IS NULL
CALL (r) { SET r.id = randomUUID() } IN TRANSACTIONS OF 10000 ROWS;
