// @row { env: string; revision: number }
// The revisions of the environments this replica knows ($ids), read again every few
// milliseconds while questions come (the coherence window, src/areas/decisions/revisions.ts).
// An environment that no longer exists is absent from the answer.
UNWIND $ids AS id
MATCH (e:Environment {id: id})
RETURN e.id AS env, coalesce(e.revision, 0) AS revision
