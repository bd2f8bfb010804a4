// @invalidates none
// @changes proxy_config:create
// @row { config: ProxyConfigNode }
// A proxy config of environment $env with its URL-mapping rules (JSON text, checked by the caller).
// A key taken fails on the proxy_config_key constraint. Its rules change no stored decision: the
// answer of /allowed_url is asked of the walk each time, after the rules are read.
CREATE (c:ProxyConfig:InEnv {env: $env, id: $id, key: $key, name: $name, auth_mechanism: $authMechanism,
                             mapping_rules_json: $rulesJson, created_at: $nowIso, updated_at: $nowIso})
RETURN c {.*} AS config
