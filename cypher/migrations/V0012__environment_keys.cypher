// Every environment has a key (Permit makes one with each; since this version, so does every
// statement that makes an environment: cypher/fragments/environmentKey.cypher). The environments
// made before it without a key get one here, as that fragment makes it: no secret (a marker in
// place of a digest, null prefix) until POST /v2/api-key/{key_id}/rotate-secret gives it one.
// Running it again makes none: an environment with a key is left alone.
MATCH (e:Environment)
WHERE NOT (e)-[:HAS_KEY]->(:ApiKey)
CREATE (e)-[:HAS_KEY]->(:ApiKey {id: randomUUID(), hash: 'no-secret:' + randomUUID(), prefix: null,
                                  name: 'Environment key', access_level: 'write',
                                  env_id: e.id, project_id: e.project_id,
                                  created_at: coalesce(e.created_at, toString(datetime()))});
