// @invalidates none
// @changes none
// @row { deleted: number; events: number }
// Retention (AUDIT_RETENTION_DAYS): deletes up to $batch ChangeSet nodes (a revision's change
// events each) older than $before, of one environment, or of every environment when $env is null
// (the background sweep is deployment-wide). `deleted` counts the nodes (the batch), `events`
// the change events they held.
MATCH (x:ChangeSet)
WHERE ($env IS NULL OR x.env = $env) AND x.at < $before
WITH x LIMIT $batch
WITH x, x.n AS n
DELETE x
RETURN count(*) AS deleted, coalesce(sum(n), 0) AS events
