// @invalidates $env
// @changes none
// @row { state: 'started' | 'not_empty' | 'importing'; stale: boolean }
// Starts import $importId into environment $env (docs/behaviour.md section 16), under the environment's
// write lock: only into an empty environment (nothing but its untouched `default` tenant), or
// one whose earlier import was abandoned (its lease, renewed by every batch, ran out: `stale`,
// whose leftovers the caller removes first). The environment is then marked as importing: every
// request to it but an import is refused until the import ends (src/http/authenticator.ts), so no
// question sees the staged records. The untouched `default` tenant goes: the stream brings its own.
// Moving the revision drops the key rows every replica keeps for the environment.
MATCH (e:Environment {id: $env})
SET e._lock = true
REMOVE e._lock
WITH e,
     e.import_id IS NOT NULL AND coalesce(e.import_lease_until, 0) > $nowMs AS busy,
     e.import_id IS NOT NULL AS stale,
     EXISTS {
       MATCH (n:InEnv {env: $env})
       USING INDEX n:InEnv(env)
       WHERE NOT (n:Session OR n:LoginCode OR n:WebhookDelivery OR n:AuditEvent OR n:DecisionLogBatch)
         AND NOT (n:Tenant AND n.key = 'default' AND NOT EXISTS { (n)--() })
     } AS holdsFacts
CALL (e, busy, stale, holdsFacts) {
  WITH e WHERE NOT busy AND (stale OR NOT holdsFacts)
  SET e.import_id = $importId, e.import_lease_until = $leaseUntil
  WITH e
  OPTIONAL MATCH (d:Tenant {env: $env, key: 'default'}) WHERE NOT EXISTS { (d)--() }
  DELETE d
}
RETURN CASE WHEN busy THEN 'importing' WHEN NOT stale AND holdsFacts THEN 'not_empty' ELSE 'started' END AS state,
       stale AND NOT busy AS stale
