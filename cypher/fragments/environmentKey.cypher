// The environment's key: Permit makes one with every environment, and so do we (the statements
// that make an environment, and migration V0012 for those made before it).
// In: `e`, an environment; `$nowIso`. Out: nothing (a unit subquery: the rows go on unchanged).
// Made only when the environment has no key. It is made without a secret: we keep only digests
// of secrets and show a secret once, so a secret made here could never be shown to anyone. Its
// `hash` is a marker no SHA-256 digest (64 hex characters) equals: it authenticates nothing
// until `POST /v2/api-key/{key_id}/rotate-secret` gives it a secret (answered once), and its
// `prefix` is null until then.
CALL (e) {
  OPTIONAL MATCH (e)-[:HAS_KEY]->(existing:ApiKey)
  WITH e, count(existing) AS keys
  WHERE keys = 0
  CREATE (e)-[:HAS_KEY]->(:ApiKey {id: randomUUID(), hash: 'no-secret:' + randomUUID(), prefix: null,
                                    name: 'Environment key', access_level: 'write',
                                    env_id: e.id, project_id: e.project_id, created_at: $nowIso})
}
