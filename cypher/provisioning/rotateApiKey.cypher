// @invalidates none
// @changes api_key:update audit
// @row { key: ApiKeyNode }
// A new secret for the key: the old digest is replaced in the same write; the store moves the
// key's environment's revision, so every replica drops its copy of the key before the answer.
// $envId, the key's environment, names where the audit log records the rotation.
MATCH (k:ApiKey {env_id: $envId, id: $id})
SET k.hash = $hash, k.prefix = $prefix, k.rotated_at = $nowIso
RETURN k {.id, .name, .prefix, .access_level, .env_id, .project_id, .created_at} AS key
