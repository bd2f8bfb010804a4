// @invalidates none
// @changes none
// @row { status: 'pending' | 'dead' }
// A failed attempt: retried at $nextAttemptAt, or given up ($dead) once past its 24 h window.
MATCH (d:WebhookDelivery {env: $env, id: $id})
SET d.attempts = d.attempts + 1, d.next_attempt_at = $nextAttemptAt, d.lease_until = null,
    d.last_error = $error, d.status = CASE WHEN $dead THEN 'dead' ELSE 'pending' END
RETURN d.status AS status
