// Fragment: the walk's starting states of a forward search: each role the user is assigned on an
// instance (a group membership is the role `member` on the group instance).
// Needs: user (a User node), withTrails. Produces:
//   assignedStates  [{node, role, trail}] with trail "user:<key> -<role>-> <type>:<key>" (or '')
WITH *, [(user)-[assignment:HAS_ROLE]->(assigned) | {node: assigned, role: assignment.role,
          trail: CASE WHEN withTrails THEN 'user:' + user.key + ' -' + assignment.role + '-> ' + assigned.resource + ':' + assigned.key ELSE '' END}] AS assignedStates
