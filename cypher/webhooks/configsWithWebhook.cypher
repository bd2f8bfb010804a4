// @row { env: string; key: string; url: string; pending: number }
// Every elements config with a webhook, all environments, with its events still in the outbox
// (read at start-up: the configs whose stored URL is now refused are named in the log).
MATCH (c:ElementsConfig) WHERE c.webhook_url IS NOT NULL
OPTIONAL MATCH (d:WebhookDelivery {env: c.env, config_id: c.id}) WHERE d.status = 'pending'
RETURN c.env AS env, c.key AS key, c.webhook_url AS url, count(d) AS pending
ORDER BY env, key
