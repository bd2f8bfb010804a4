// @row { env: string; revision: number }
MATCH (e:Environment)
WHERE $envId IS NULL OR e.id = $envId
RETURN e.id AS env, coalesce(e.revision, 0) AS revision
