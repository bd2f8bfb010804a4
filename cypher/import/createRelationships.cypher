// @invalidates none
// @changes none
// @row { created: number }
// One batch of import $importId: the links $rows {type, from, to, props} between records of
// environment $env, each end found by its id (index in_env_id). `created` short of size($rows): an
// end is missing, or a GROUPS link does not start at a group (the caller refuses the stream).
// Nothing when the import is no longer the environment's. Renews the import's lease.
// #include fragments/importLease
WITH e
// #include fragments/importLinks
RETURN created
