// Permit's proxy configs, holding URL-mapping rules (docs/behaviour.md section 24): one key per
// environment, found by id too.
CREATE CONSTRAINT proxy_config_key IF NOT EXISTS FOR (c:ProxyConfig) REQUIRE (c.env, c.key) IS UNIQUE;
CREATE INDEX proxy_config_id IF NOT EXISTS FOR (c:ProxyConfig) ON (c.id);
