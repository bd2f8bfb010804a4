// The walk extension (neo4j/extension, RuleTables) reads an environment's roles through the core
// API, which seeks an index only when one covers exactly the properties asked: (env) alone for
// Role and ResourceRole (their unique constraints are on (env, key) and (env, resource, key)).
// Without these, each call would scan every environment's roles.
CREATE INDEX role_env IF NOT EXISTS FOR (r:Role) ON (r.env);
CREATE INDEX resource_role_env IF NOT EXISTS FOR (r:ResourceRole) ON (r.env);
