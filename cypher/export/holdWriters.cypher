// @invalidates none
// @changes none
// @row { revision: number }
// Takes the write lock of environment $envId (set to its own value: nothing changes, and the
// export rolls its transaction back) and answers its revision. Every write to the environment
// moves this revision in its own transaction (src/db/db.ts), taking this lock, so while an
// export holds it no write commits: the export reads exactly the writes up to this revision.
MATCH (e:Environment {id: $envId})
SET e.revision = coalesce(e.revision, 0)
RETURN e.revision AS revision
