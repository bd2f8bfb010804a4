// @invalidates none
CREATE (p:Project {id: $id, key: $key, name: $name, description: $description, org_id: $orgId,
                   created_at: $now, updated_at: $now})
RETURN p {.*} AS project
