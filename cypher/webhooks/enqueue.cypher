// @invalidates none
// @changes none
// @row { id: string }
// The outbox row of one event of an approval or access request, written in the transaction of
// the change it announces (a rollback drops it; a commit keeps it across restarts). Nothing is
// written when the request's config has no webhook. `seq` orders the events of one request.
MATCH (a:OperationApproval {id: $requestId}) WHERE a.env = $env
MATCH (c:ElementsConfig {env: $env, id: a.config_id}) WHERE c.webhook_url IS NOT NULL
SET a.webhook_seq = coalesce(a.webhook_seq, 0) + 1
CREATE (d:WebhookDelivery:InEnv {env: $env, id: $id, config_id: c.id, request_id: a.id, seq: a.webhook_seq,
                                 event: $event, body: $body, status: 'pending', attempts: 0, next_attempt_at: $nowIso,
                                 give_up_at: $giveUpAt, lease_until: null, last_error: null, created_at: $nowIso})
RETURN d.id AS id
