// Fragment: the forward walk (fragments/reachableStates) from every role user $user is assigned
// on an instance (fragments/rule/directAssignments), to every (instance, role) those assignments give.
// Needs: $env, $user, $depth, $nowMs, withTrails. Produces: user (no row when the user is unknown),
// derivations, directNodes, reachedStates, reachedKeys, depthLimited.
// #include fragments/derivations
MATCH (user:User {env: $env, key: $user})
WITH *, user AS holder
// #include fragments/rule/directAssignments
// The start states: each assignment, with the trail "user:<key> -<role>-> <type>:<key>" (or '').
WITH *, [assignment IN directAssignments | {node: assignment.node, role: assignment.role, until: assignment.until,
          trail: CASE WHEN withTrails THEN 'user:' + user.key + ' -' + assignment.role + '-> ' + assignment.node.resource + ':' + assignment.node.key ELSE '' END}] AS startStates,
        true AS searchForward, [] AS stopWhenReached
// #include fragments/reachableStates
