// Change events (issue 17): the feed reads an environment's events in revision order.
CREATE INDEX change_env_revision IF NOT EXISTS FOR (c:Change) ON (c.env, c.revision);
// Audit-only events (keys, sessions): the audit log reads them by environment and time.
CREATE INDEX audit_event_env_at IF NOT EXISTS FOR (a:AuditEvent) ON (a.env, a.at);
// Sampled decisions (DECISION_LOG_SAMPLE), read by environment and time.
CREATE INDEX decision_log_env_at IF NOT EXISTS FOR (d:DecisionLogBatch) ON (d.env, d.at);
