// Fragment: the walk of the permission rule, written once for both directions.
// A state (node, role) reads "role is held (forward) or needed (backward) on the instance node".
// One hop follows one edge between instances:
//  - GROUPS (a resource group -> an instance it groups): a role on the group is the same role on
//    the grouped instance;
//  - RELATED {relation} (subject -> object, a relationship tuple): a derivation with
//    resource = the object's type, on_resource = the subject's type and that relation turns
//    `from_role` on the subject into `role` on the object; a derivation with
//    `no_direct_roles_on_object` does not when the object is one of directNodes;
//  - EXTENDS (role hierarchy, no edge between instances): a state (node, role) is also the state
//    of each role it extends (forward: held roles give their ancestors) or each role extending it
//    (backward: a needed role is given by its descendants), in the same hop, trail
//    "<type>:<key>#<role> -extends-> <type>:<key>#<other role>".
// An edge with `expires_at` (epoch ms) at or before $nowMs is not followed; each state carries
// `until`, the earliest expires_at on the way to it (null: none), so an answer knows how long it holds.
// Forward walks subject -> object, from held roles to what they give (user-permissions, effective
// roles, list-objects); backward walks object -> subject, from a needed role to the roles that
// would give it (allowed, authorized users). Breadth first, each state visited once, so cycles
// end; at most $depth hops. One hop past the limit is looked at only to tell whether the limit
// cut the search short.
// Needs:
//   $depth           MAX_DERIVATION_DEPTH
//   $nowMs             the decision instant, epoch ms
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
         candidate IN reduce(expanded = [], state IN CASE WHEN hop = 0 THEN startStates ELSE reduce(candidates = [], state IN search.front |
           candidates + reduce(fromState = [], link IN head([node IN [state.node] | CASE WHEN searchForward
                 THEN [(node)-[edge:RELATED|GROUPS]->(neighbour) WHERE (edge.expires_at IS NULL OR edge.expires_at > $nowMs) | {neighbour: neighbour, edge: edge, subject: node, object: neighbour}]
                 ELSE [(neighbour)-[edge:RELATED|GROUPS]->(node) WHERE (edge.expires_at IS NULL OR edge.expires_at > $nowMs) | {neighbour: neighbour, edge: edge, subject: neighbour, object: node}] END]) |
             fromState + [role IN CASE type(link.edge)
                   WHEN 'GROUPS' THEN [state.role]
                   ELSE [derivation IN derivations WHERE derivation.relation = link.edge.relation
                           AND derivation.on_resource = link.subject.resource AND derivation.resource = link.object.resource
                           AND state.role = CASE WHEN searchForward THEN derivation.from_role ELSE derivation.role END
                           AND NOT (derivation.no_direct_roles_on_object AND elementId(link.object) IN directNodes)
                         | CASE WHEN searchForward THEN derivation.role ELSE derivation.from_role END]
                 END | {node: link.neighbour, role: role,
                        until: CASE WHEN link.edge.expires_at IS NULL OR (state.until IS NOT NULL AND state.until < link.edge.expires_at)
                                    THEN state.until ELSE link.edge.expires_at END, trail: CASE
                   WHEN NOT withTrails THEN ''
                   WHEN searchForward THEN state.trail + ' -' + coalesce(link.edge.relation, 'groups') + '-> ' + link.neighbour.resource + ':' + link.neighbour.key
                   ELSE link.neighbour.resource + ':' + link.neighbour.key + ' -' + coalesce(link.edge.relation, 'groups') + '-> ' + state.trail END}])) END |
           expanded + [state] + [implied IN coalesce(head([entry IN roleHierarchy
               WHERE entry.role = state.role AND (entry.resource = state.node.resource
                 OR (entry.resource IS NULL AND NOT (state.node.resource + '|' + state.role) IN resourceRoleKeys))
               | [other IN CASE WHEN searchForward THEN entry.up ELSE entry.down END
                   WHERE entry.resource IS NOT NULL OR NOT (state.node.resource + '|' + other) IN resourceRoleKeys]]), [])
             | {node: state.node, role: implied, until: state.until, trail: CASE
                 WHEN NOT withTrails THEN ''
                 WHEN searchForward THEN state.trail + '#' + state.role + ' -extends-> ' + state.node.resource + ':' + state.node.key + '#' + implied
                 ELSE state.node.resource + ':' + state.node.key + '#' + implied + ' -extends-> ' + state.node.resource + ':' + state.node.key + '#' + state.role
                      + CASE WHEN state.trail STARTS WITH state.node.resource + ':' + state.node.key + '#' THEN ''
                             ELSE substring(state.trail, size(state.node.resource + ':' + state.node.key)) END END}]) |
         CASE WHEN (elementId(candidate.node) + '|' + candidate.role) IN next.keys THEN next
              ELSE {front: next.front + [candidate], keys: next.keys + [elementId(candidate.node) + '|' + candidate.role],
                    states: next.states + [candidate], withinLimit: next.withinLimit + CASE WHEN hop <= $depth THEN 1 ELSE 0 END} END)
  END) AS search
WITH *, search.states[..search.withinLimit] AS reachedStates, search.keys[..search.withinLimit] AS reachedKeys,
     size(search.keys) > search.withinLimit AS depthLimited
