// Rule step: role hierarchy (EXTENDS) at instance scope, no edge between instances. A state
// (node, role) is also the state of each role the role extends, transitively (forward: a held
// role gives its ancestors), or of each role extending it (backward: a needed role is given by
// its descendants), in the same hop. A resource role's hierarchy applies on its resource; a
// tenant-level role's on types without a resource role of its key (nor of the other role's key).
// Trail: "<type>:<key>#<role> -extends-> <type>:<key>#<other role>".
// An expression: [{node, role, until, trail}]. Needs: state, roleHierarchy, resourceRoleKeys
// (fragments/derivations), searchForward, withTrails.
[implied IN coalesce(head([entry IN roleHierarchy
    WHERE entry.role = state.role AND (entry.resource = state.node.resource
      OR (entry.resource IS NULL AND NOT (state.node.resource + '|' + state.role) IN resourceRoleKeys))
    | [other IN CASE WHEN searchForward THEN entry.up ELSE entry.down END
        WHERE entry.resource IS NOT NULL OR NOT (state.node.resource + '|' + other) IN resourceRoleKeys]]), [])
  | {node: state.node, role: implied, until: state.until, trail: CASE
      WHEN NOT withTrails THEN ''
      WHEN searchForward THEN state.trail + '#' + state.role + ' -extends-> ' + state.node.resource + ':' + state.node.key + '#' + implied
      ELSE state.node.resource + ':' + state.node.key + '#' + implied + ' -extends-> ' + state.node.resource + ':' + state.node.key + '#' + state.role
           + CASE WHEN state.trail STARTS WITH state.node.resource + ':' + state.node.key + '#' THEN ''
                  ELSE substring(state.trail, size(state.node.resource + ':' + state.node.key)) END END}]
