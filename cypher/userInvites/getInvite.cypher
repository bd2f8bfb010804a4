// @row { invite: UserInviteNode }
// An invite of environment $env by its id.
MATCH (i:UserInvite {env: $env, id: $id})
RETURN i {.*} AS invite
