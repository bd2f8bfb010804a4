// @invalidates none
// @changes none
// @row { created: number }
// One batch of import $importId with the walk extension: what import/createRelationships writes
// and answers (the same links, each end found by its id), the import's mark checked under the
// environment's lock taken shared (graphauthz.holdImport), as import/createNodesExt does.
// Nothing when the import is no longer the environment's.
CALL graphauthz.holdImport($env, $importId) YIELD env AS held
// #include fragments/importLinks
RETURN created
