// Elements configs, login sessions and operation approvals.
CREATE CONSTRAINT elements_config_key IF NOT EXISTS FOR (c:ElementsConfig) REQUIRE (c.env, c.key) IS UNIQUE;
CREATE CONSTRAINT elements_config_id IF NOT EXISTS FOR (c:ElementsConfig) REQUIRE c.id IS UNIQUE;
// Sessions are found by the SHA-256 digest of their token; the token itself is never stored.
CREATE CONSTRAINT session_hash IF NOT EXISTS FOR (s:Session) REQUIRE s.hash IS UNIQUE;
CREATE CONSTRAINT session_id IF NOT EXISTS FOR (s:Session) REQUIRE s.id IS UNIQUE;
CREATE INDEX session_env_user IF NOT EXISTS FOR (s:Session) ON (s.env, s.user);
CREATE CONSTRAINT operation_approval_id IF NOT EXISTS FOR (a:OperationApproval) REQUIRE a.id IS UNIQUE;
CREATE INDEX operation_approval_config_tenant IF NOT EXISTS FOR (a:OperationApproval) ON (a.env, a.config_id, a.tenant);
