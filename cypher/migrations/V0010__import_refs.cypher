// Export and import of an environment (docs/behaviour.md section 16): an import links the relationships of
// its stream by the ids of their end nodes, each looked up by (environment, id) whatever its label.
// An index only: a graph an earlier version wrote answers as before.
CREATE INDEX in_env_id IF NOT EXISTS FOR (n:InEnv) ON (n.env, n.id);
