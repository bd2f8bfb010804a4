// @invalidates $env
// @changes none
// @row { id: string }
// The one small transaction that makes import $importId visible: the environment is no longer
// marked, and its revision moves (every cached answer of it is dropped). No row: the import is no
// longer the environment's.
MATCH (e:Environment {id: $env}) WHERE e.import_id = $importId
REMOVE e.import_id, e.import_lease_until
RETURN e.id AS id
