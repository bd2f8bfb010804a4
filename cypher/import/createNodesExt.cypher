// @invalidates none
// @changes none
// @row { created: number }
// One batch of import $importId with the walk extension: what import/createNodes writes and
// answers, the import's mark checked under the environment's lock taken shared
// (graphauthz.holdImport) instead of renewed under it taken exclusively, so that the import's two
// batches in flight are written at once. The lease is renewed apart (import/renewLease).
// Nothing when the import is no longer the environment's.
CALL graphauthz.holdImport($env, $importId) YIELD env AS held
// #include fragments/importRecords
RETURN created
