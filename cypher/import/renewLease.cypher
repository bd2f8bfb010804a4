// @invalidates none
// @changes none
// @row { renewed: number }
// Renews import $importId's lease on environment $env (its lock taken exclusively, so after every
// batch in flight): the batches written with the walk extension do not (import/createNodesExt).
// No row: the import is no longer the environment's.
// #include fragments/importLease
RETURN 1 AS renewed
