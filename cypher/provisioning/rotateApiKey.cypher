// @invalidates none
// A new secret for the key: the old digest is replaced in the same write, so the old secret is
// refused on the next request by every replica (keys are looked up on every request).
MATCH (k:ApiKey {id: $id})
SET k.hash = $hash, k.prefix = $prefix, k.rotated_at = $now
RETURN k {.id, .name, .prefix, .access_level, .env_id, .project_id, .created_at} AS key
