// @invalidates none
// @changes none
// @row { id: string; env: string; event: WebhookEvent; body: string; attempts: number; give_up_at: string;
//   url: string; bearer_token: string | null; secret: string }
// Claims up to $limit due deliveries for $leaseUntil, across environments (the dispatcher serves
// all of them; each delivery is joined to the config of its own environment). Only the oldest
// pending event of a request is due, so a request's events go out in order. The first SET takes
// the write lock; the lease is read again after it, so concurrent dispatchers do not both claim.
MATCH (d:WebhookDelivery)
WHERE d.status = 'pending' AND d.next_attempt_at <= $nowIso AND (d.lease_until IS NULL OR d.lease_until <= $nowIso)
  AND NOT EXISTS {
    MATCH (e:WebhookDelivery {request_id: d.request_id})
    WHERE e.env = d.env AND e.status = 'pending' AND e.seq < d.seq
  }
WITH d ORDER BY d.next_attempt_at LIMIT $limit
SET d._claim = true
WITH d WHERE d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= $nowIso)
MATCH (c:ElementsConfig {env: d.env, id: d.config_id})
SET d.lease_until = $leaseUntil
REMOVE d._claim
RETURN d.id AS id, d.env AS env, d.event AS event, d.body AS body, d.attempts AS attempts, d.give_up_at AS give_up_at,
       c.webhook_url AS url, c.webhook_bearer_token AS bearer_token, c.webhook_secret AS secret
