// @invalidates none
// @changes none
// @row { project: ProjectNode }
// PATCH /v2/projects/{p}: name and description only (a project's key and id never change).
MATCH (p:Project {id: $id})
SET p.name = coalesce($name, p.name),
    p.description = CASE WHEN $setDescription THEN $description ELSE p.description END,
    p.updated_at = $nowIso
RETURN p {.*} AS project
