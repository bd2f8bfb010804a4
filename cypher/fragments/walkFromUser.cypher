// Fragment: the forward walk (fragments/reachableStates) from every role user $user is assigned
// on an instance, to every (instance, role) those assignments give.
// Needs: $env, $user, $depth, $nowMs, withTrails. Produces: user (no row when the user is unknown),
// derivations, directNodes, reachedStates, reachedKeys, depthLimited.
// #include fragments/derivations
MATCH (user:User {env: $env, key: $user})
// #include fragments/assignedStates
WITH *, assignedStates AS startStates, [(user)-[direct:HAS_ROLE]->(assigned) WHERE (direct.expires_at IS NULL OR direct.expires_at > $nowMs) | elementId(assigned)] AS directNodes, true AS searchForward, [] AS stopWhenReached
// #include fragments/reachableStates
