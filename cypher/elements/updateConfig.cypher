// @invalidates none
// @changes elements_config:update
// @row { config: ElementsConfigNode; before: ElementsConfigNode; after: ElementsConfigNode }
// $setWebhook: the patch names `webhook` (an object sets it, null removes it). A config made
// before webhooks existed gets its secret here, once (`secret_is_new` tells the caller to show it).
MATCH (c:ElementsConfig {env: $env, id: $id})
WITH c, c.webhook_secret IS NULL AS fresh, c {.*} AS before
SET c.name = coalesce($name, c.name),
    c.settings_json = coalesce($settings_json, c.settings_json),
    c.resources = coalesce($resources, c.resources),
    c.roles_to_levels_json = coalesce($roles_to_levels_json, c.roles_to_levels_json),
    c.webhook_url = CASE WHEN $setWebhook THEN $webhook_url ELSE c.webhook_url END,
    c.webhook_bearer_token = CASE WHEN $setWebhook THEN $webhook_bearer_token ELSE c.webhook_bearer_token END,
    c.webhook_secret = coalesce(c.webhook_secret, $webhook_secret),
    c.updated_at = $nowIso
RETURN c {.*, secret_is_new: fresh} AS config, before, c {.*} AS after
