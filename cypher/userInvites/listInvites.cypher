// @row { total: number; data: UserInviteNode[] }
// The invites of environment $env, oldest first, one page. (`id IS NOT NULL`, always true, seeks the (env, id) index.)
OPTIONAL MATCH (i:UserInvite {env: $env}) WHERE i.id IS NOT NULL
WITH i ORDER BY i.created_at, i.id
WITH collect(i) AS items
RETURN size(items) AS total, [i IN items[$skip..($skip + $limit)] | i {.*}] AS data
