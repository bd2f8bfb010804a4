// @invalidates none
MATCH (k:ApiKey {env_id: $envId, id: $id})
DETACH DELETE k
RETURN count(*) AS deleted
