// @invalidates none
// @changes none
// @row { deleted: number }
// Retention (AUDIT_RETENTION_DAYS): deletes up to $batch AuditEvent nodes older than $before, of one
// environment, or of every environment when $env is null (the background sweep is deployment-wide).
MATCH (x:AuditEvent)
WHERE ($env IS NULL OR x.env = $env) AND x.at < $before
WITH x LIMIT $batch
DELETE x
RETURN count(*) AS deleted
