// @row { total: number; data: { id: string; request_id: string; event: WebhookEvent; status: 'pending' | 'dead';
//   attempts: number; last_error: string | null; next_attempt_at: string; give_up_at: string; created_at: string }[] }
// The events of one elements config still in the outbox (a delivered event leaves it), newest
// first: `pending` (not yet delivered; `attempts` and `last_error` say how the tries went, e.g.
// "blocked: ..." for a URL in a refused network) or `dead` (given up after 24 h). $status narrows.
MATCH (d:WebhookDelivery {env: $env, config_id: $configId})
WHERE $status IS NULL OR d.status = $status
WITH d ORDER BY d.created_at DESC, d.seq DESC
WITH collect(d) AS items
RETURN size(items) AS total,
       [d IN items[$skip..($skip + $limit)] | d {.id, .request_id, .event, .status, .attempts, .last_error,
                                                  .next_attempt_at, .give_up_at, .created_at}] AS data
