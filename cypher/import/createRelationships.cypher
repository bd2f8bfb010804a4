// @invalidates none
// @changes none
// @row { created: number }
// One batch of import $importId: the links $rows {type, from, to, props} between records of
// environment $env, each end found by its id (index in_env_id). `created` short of size($rows): an
// end is missing, or a GROUPS link does not start at a group (the caller refuses the stream).
// Nothing when the import is no longer the environment's. Renews the import's lease.
// #include fragments/importLease
WITH e
UNWIND $rows AS row
MATCH (a:InEnv {env: $env, id: row.from})
// A resource-group link starts at a group (docs/graph-model.md): the walk extension reads GROUPS edges only there.
  WHERE row.type <> 'GROUPS' OR a:Group
MATCH (b:InEnv {env: $env, id: row.to})
CREATE (a)-[r:$(row.type)]->(b)
// The link properties an export holds, each by name (src/areas/snapshots/format.ts refuses others):
// `SET r = row.props` would make Neo4j buffer the whole batch first (Eager), to be safe.
SET r.id = row.props.id, r.role = row.props.role, r.tenant = row.props.tenant, r.relation = row.props.relation,
    r.created_at = row.props.created_at, r.updated_at = row.props.updated_at, r.expires_at = row.props.expires_at
WITH count(r) AS created
RETURN created
