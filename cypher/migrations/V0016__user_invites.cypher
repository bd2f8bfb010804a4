// User invites (docs/behaviour.md section 25): found by id within their environment.
CREATE INDEX user_invite_id IF NOT EXISTS FOR (i:UserInvite) ON (i.env, i.id);
