// @invalidates none
// @changes none
// @row { environment: EnvironmentNode }
// PATCH /v2/projects/{p}/envs/{e}: name and description only, within the project.
MATCH (:Project {id: $projectId})-[:HAS_ENV]->(e:Environment {id: $id})
SET e.name = coalesce($name, e.name),
    e.description = CASE WHEN $setDescription THEN $description ELSE e.description END,
    e.updated_at = $nowIso
RETURN e {.*} AS environment
