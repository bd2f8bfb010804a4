// @invalidates none
// @changes none
// @row { created: number }
// One batch of import $importId with the walk extension: what import/createRelationships writes
// and answers (the same links and properties, each end found by its id, the same count), written by
// graphauthz.importLinks (neo4j/extension ImportLinks.java: each end looked up once a batch), after
// the import's mark is checked under the environment's lock taken shared (graphauthz.holdImport), as
// import/createNodesExt does. Nothing when the import is no longer the environment's.
CALL graphauthz.holdImport($env, $importId) YIELD env AS held
CALL graphauthz.importLinks($env, $rows) YIELD created
RETURN created
