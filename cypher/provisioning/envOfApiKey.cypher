// @row { envId: string }
// The environment of the key $id (none when no key has this id): the rotation names it, so
// that the audit log records the rotation in that environment.
MATCH (k:ApiKey {id: $id})
RETURN k.env_id AS envId
