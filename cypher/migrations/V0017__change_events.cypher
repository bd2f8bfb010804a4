// Change events (issue 17): the feed reads an environment's events in revision order.
CREATE INDEX change_env_revision IF NOT EXISTS FOR (c:Change) ON (c.env, c.revision);
