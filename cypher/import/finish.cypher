// @invalidates $env
// @changes environment_import:create
// @row { after: { key: string; records: number; links: number } }
// The one small transaction that makes import $importId visible: the environment is no longer
// marked, and its revision moves (every cached answer of it is dropped). Its change event (one,
// not one per record) tells the feed's readers that the environment was filled at this revision:
// read it again. No row: the import is no longer the environment's.
MATCH (e:Environment {id: $env}) WHERE e.import_id = $importId
REMOVE e.import_id, e.import_lease_until
RETURN {key: e.key, records: $nodes, links: $relationships} AS after
