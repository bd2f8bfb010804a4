// Fragment: the walk of the permission rule, written once for both directions, composed of the
// rule's named steps (fragments/rule/):
//   linksOfState    the live RELATED and GROUPS edges at a state's node (expiry: grantIsLive)
//   groupStep       GROUPS: a role on a group is the same role on the grouped instance
//   derivationStep  RELATED {relation}: a derivation turns a role on one end into a role on the other
//   untilThrough    each state's `until`: the earliest expires_at on the way to it (null: none)
//   hierarchyStep   EXTENDS: a state is also the state of the roles its role extends (or is extended by)
// A state (node, role) reads "role is held (forward) or needed (backward) on the instance node".
// Forward walks subject -> object, from held roles to what they give (user-permissions, effective
// roles, list-objects); backward walks object -> subject, from a needed role to the roles that
// would give it (allowed, authorized users). Breadth first, each state visited once, so cycles
// end; at most $depth hops. One hop past the limit is looked at only to tell whether the limit
// cut the search short.
// Needs:
//   $depth           MAX_DERIVATION_DEPTH
//   $nowMs           the decision instant, epoch ms
//   derivations, roleHierarchy, resourceRoleKeys (fragments/derivations)
//   directNodes      [elementId] the instances the user asked about holds a direct role on ([]: none known)
//   startStates      [{node, role, trail, until}] the states at hop 0
//   searchForward    true: subject -> object; false: object -> subject
//   stopWhenReached  ["<elementId>|<role>"]: stop once one of these states is reached ([]: never)
//   withTrails       true: each state carries the readable hops that lead to it (for explanations)
// Produces:
//   reachedStates    [{node, role, trail, until}] every state at most $depth hops away, in visiting order
//   reachedKeys      ["<elementId>|<role>"] the keys of reachedStates, same order
//   depthLimited     the limit cut the search: a new state lies one hop beyond it
WITH *, reduce(
  search = {front: [], keys: [], states: [], withinLimit: 0},
  hop IN range(0, $depth + 1) |
  CASE WHEN (hop > 0 AND size(search.front) = 0) OR (size(stopWhenReached) > 0 AND any(key IN search.keys WHERE key IN stopWhenReached)) THEN search
  ELSE reduce(next = {front: [], keys: search.keys, states: search.states, withinLimit: search.withinLimit},
         // The candidates of this hop: hop 0's start states, else each state one edge away from
         // the front, each with the states the hierarchy gives at its node.
         candidate IN reduce(expanded = [], state IN CASE WHEN hop = 0 THEN startStates ELSE reduce(candidates = [], state IN search.front |
           candidates + reduce(fromState = [], link IN
// #include fragments/rule/linksOfState
             | fromState + [role IN CASE type(link.edge) WHEN 'GROUPS' THEN
// #include fragments/rule/groupStep
                   ELSE
// #include fragments/rule/derivationStep
                 END | {node: link.neighbour, role: role, until:
// #include fragments/rule/untilThrough
                   , trail: CASE
                   WHEN NOT withTrails THEN ''
                   WHEN searchForward THEN state.trail + ' -' + coalesce(link.edge.relation, 'groups') + '-> ' + link.neighbour.resource + ':' + link.neighbour.key
                   ELSE link.neighbour.resource + ':' + link.neighbour.key + ' -' + coalesce(link.edge.relation, 'groups') + '-> ' + state.trail END}])) END |
           expanded + [state] +
// #include fragments/rule/hierarchyStep
           ) |
         // Visit: a state not seen before joins the next front.
         CASE WHEN (elementId(candidate.node) + '|' + candidate.role) IN next.keys THEN next
              ELSE {front: next.front + [candidate], keys: next.keys + [elementId(candidate.node) + '|' + candidate.role],
                    states: next.states + [candidate], withinLimit: next.withinLimit + CASE WHEN hop <= $depth THEN 1 ELSE 0 END} END)
  END) AS search
WITH *, search.states[..search.withinLimit] AS reachedStates, search.keys[..search.withinLimit] AS reachedKeys,
     size(search.keys) > search.withinLimit AS depthLimited
