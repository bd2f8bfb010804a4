// @invalidates $env
// @changes none
// @row { id: string }
// Ends import $importId that failed, once its staged records are removed: the environment is no
// longer marked and holds again what a new environment holds (its `default` tenant).
MATCH (e:Environment {id: $env}) WHERE e.import_id = $importId
REMOVE e.import_id, e.import_lease_until
MERGE (t:Tenant:InEnv {env: e.id, key: 'default'})
  ON CREATE SET t.id = randomUUID(), t.name = 'Default Tenant', t.description = null,
                t.attributes_json = '{}', t.created_at = $nowIso, t.updated_at = $nowIso
RETURN e.id AS id
