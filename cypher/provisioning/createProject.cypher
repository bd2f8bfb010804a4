// @invalidates none
// @changes none
// @row { project: ProjectNode }
CREATE (p:Project {id: $id, key: $key, name: $name, description: $description, org_id: $orgId,
                   created_at: $nowIso, updated_at: $nowIso})
RETURN p {.*} AS project
