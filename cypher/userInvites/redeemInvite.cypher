// @invalidates none
// @changes user_invite:update
// @row { invite: UserInviteNode; before: UserInviteNode; after: UserInviteNode }
// Approves pending invite $id of environment $env, under its write lock: a second redemption
// waits, then finds it approved and answers nothing. The caller makes the user
// (userInvites/createInvitedUser) and assigns the invite's role in the same transaction.
MATCH (i:UserInvite {env: $env, id: $id})
SET i._lock = true
REMOVE i._lock
WITH i, i {.*} AS before
WHERE i.status = 'pending'
SET i.status = 'approved', i.updated_at = $nowIso
RETURN i {.*} AS invite, before, i {.*} AS after
