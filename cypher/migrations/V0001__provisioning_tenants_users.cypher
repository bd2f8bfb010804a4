// Provisioning: projects, environments, API keys. Every lookup key has a constraint or index.
CREATE CONSTRAINT migration_version IF NOT EXISTS FOR (m:Migration) REQUIRE m.version IS UNIQUE;
CREATE CONSTRAINT project_id IF NOT EXISTS FOR (p:Project) REQUIRE p.id IS UNIQUE;
CREATE CONSTRAINT project_key IF NOT EXISTS FOR (p:Project) REQUIRE p.key IS UNIQUE;
CREATE CONSTRAINT environment_id IF NOT EXISTS FOR (e:Environment) REQUIRE e.id IS UNIQUE;
CREATE CONSTRAINT environment_key IF NOT EXISTS FOR (e:Environment) REQUIRE (e.project_id, e.key) IS UNIQUE;
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE;
CREATE CONSTRAINT api_key_hash IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.hash IS UNIQUE;
CREATE INDEX api_key_env IF NOT EXISTS FOR (k:ApiKey) ON (k.env_id);
// Everything that lives inside an environment carries the label InEnv and the property env.
CREATE INDEX in_env IF NOT EXISTS FOR (n:InEnv) ON (n.env);
CREATE CONSTRAINT tenant_key IF NOT EXISTS FOR (t:Tenant) REQUIRE (t.env, t.key) IS UNIQUE;
CREATE INDEX tenant_id IF NOT EXISTS FOR (t:Tenant) ON (t.id);
CREATE CONSTRAINT user_key IF NOT EXISTS FOR (u:User) REQUIRE (u.env, u.key) IS UNIQUE;
CREATE INDEX user_id IF NOT EXISTS FOR (u:User) ON (u.id);
CREATE INDEX user_email IF NOT EXISTS FOR (u:User) ON (u.env, u.email);
