// Rule step: the edges one hop of the walk may follow from a state: the live (fragments/rule/
// grantIsLive) RELATED (relationship tuple, subject -> object) and GROUPS (resource group ->
// grouped instance) edges at `state.node`, outgoing when searching forward (subject -> object),
// incoming when searching backward.
// An expression: [{neighbour, edge, subject, object}]. Needs: state, searchForward, $nowMs.
head([node IN [state.node] | CASE WHEN searchForward
  THEN [(node)-[grant:RELATED|GROUPS]->(neighbour) WHERE
// #include fragments/rule/grantIsLive
        | {neighbour: neighbour, edge: grant, subject: node, object: neighbour}]
  ELSE [(neighbour)-[grant:RELATED|GROUPS]->(node) WHERE
// #include fragments/rule/grantIsLive
        | {neighbour: neighbour, edge: grant, subject: neighbour, object: node}] END])
