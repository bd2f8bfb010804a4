// @invalidates none
// @changes none
// @row { revision: number }
// Every write to an environment bumps its revision: decisions cached under an older revision
// are not used again.
MATCH (e:Environment {id: $envId})
SET e.revision = coalesce(e.revision, 0) + 1
RETURN e.revision AS revision
