// @invalidates none
// @changes none
// @row { project: ProjectNode }
// Bootstrap: create the project if missing, keep it as is otherwise.
MERGE (p:Project {key: $key})
  ON CREATE SET p.id = $id, p.name = $key, p.description = null, p.org_id = $orgId,
                p.created_at = $nowIso, p.updated_at = $nowIso
RETURN p {.*} AS project
