// @invalidates none
// @changes none
// @row { created: number }
// One batch of import $importId with the walk extension: what import/createNodes writes and
// answers (the same records, labels and properties, the same count), written by
// graphauthz.importRecords (neo4j/extension ImportRecords.java), the import's mark checked under the
// environment's lock taken shared (graphauthz.holdImport) instead of renewed under it taken
// exclusively, so that the import's two batches in flight are written at once. The lease is renewed
// apart (import/renewLease). Nothing when the import is no longer the environment's.
CALL graphauthz.holdImport($env, $importId) YIELD env AS held
CALL graphauthz.importRecords($env, $rows) YIELD created
RETURN created
