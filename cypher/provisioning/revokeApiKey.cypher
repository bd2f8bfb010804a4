// @invalidates none
// @changes api_key:delete audit
// @row { deleted: number }
MATCH (k:ApiKey {env_id: $envId, id: $id})
DETACH DELETE k
RETURN count(*) AS deleted
