// @invalidates none
// @changes user_invite:delete
// @row { deleted: number; before: UserInviteNode | null }
// Removes invite $id of environment $env (pending or approved; the user an approval made stays).
MATCH (i:UserInvite {env: $env, id: $id})
WITH i, i {.*} AS before
DELETE i
RETURN count(*) AS deleted, collect(before)[0] AS before
