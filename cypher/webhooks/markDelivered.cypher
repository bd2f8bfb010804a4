// @invalidates none
// @changes none
// @row { deleted: number }
// A delivered event leaves the outbox (at-least-once: the receiver may see it again if this fails).
MATCH (d:WebhookDelivery {env: $env, id: $id})
DELETE d
RETURN count(*) AS deleted
