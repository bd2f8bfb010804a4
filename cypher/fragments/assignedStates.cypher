// Fragment: the walk's starting states of a forward search: each role the user is assigned on an
// instance (a group membership is the role `member` on the group instance) and that has not
// expired (`expires_at`, epoch ms, after $nowMs).
// Needs: $nowMs, user (a User node), withTrails. Produces:
//   assignedStates  [{node, role, trail, until}] with trail "user:<key> -<role>-> <type>:<key>" (or '')
//                   and until the assignment's expires_at (null: none)
WITH *, [(user)-[assignment:HAS_ROLE]->(assigned) WHERE (assignment.expires_at IS NULL OR assignment.expires_at > $nowMs) | {node: assigned, role: assignment.role, until: assignment.expires_at,
          trail: CASE WHEN withTrails THEN 'user:' + user.key + ' -' + assignment.role + '-> ' + assigned.resource + ':' + assigned.key ELSE '' END}] AS assignedStates
