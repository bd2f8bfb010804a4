// Schema and facts of the permission graph; every lookup key is covered.
CREATE CONSTRAINT resource_key IF NOT EXISTS FOR (r:Resource) REQUIRE (r.env, r.key) IS UNIQUE;
CREATE INDEX resource_id IF NOT EXISTS FOR (r:Resource) ON (r.id);
CREATE CONSTRAINT resource_role_key IF NOT EXISTS FOR (r:ResourceRole) REQUIRE (r.env, r.resource, r.key) IS UNIQUE;
CREATE INDEX resource_role_env_resource IF NOT EXISTS FOR (r:ResourceRole) ON (r.env, r.resource);
CREATE CONSTRAINT role_key IF NOT EXISTS FOR (r:Role) REQUIRE (r.env, r.key) IS UNIQUE;
CREATE CONSTRAINT relation_key IF NOT EXISTS FOR (r:Relation) REQUIRE (r.env, r.resource, r.key) IS UNIQUE;
CREATE CONSTRAINT derivation_key IF NOT EXISTS FOR (d:Derivation) REQUIRE (d.env, d.resource, d.role, d.on_resource, d.from_role, d.relation) IS UNIQUE;
CREATE INDEX derivation_env IF NOT EXISTS FOR (d:Derivation) ON (d.env);
CREATE CONSTRAINT instance_key IF NOT EXISTS FOR (i:Instance) REQUIRE (i.env, i.resource, i.key) IS UNIQUE;
CREATE INDEX instance_id IF NOT EXISTS FOR (i:Instance) ON (i.id);
CREATE INDEX instance_env_tenant IF NOT EXISTS FOR (i:Instance) ON (i.env, i.tenant);
CREATE CONSTRAINT group_key IF NOT EXISTS FOR (g:Group) REQUIRE (g.env, g.key) IS UNIQUE;
CREATE INDEX in_env_tenant IF NOT EXISTS FOR (n:InEnv) ON (n.env, n.tenant);
