// Rule step: resource group. A role held on a group (the GROUPS edge's start) is the same role on
// each instance the group groups, so the role a state carries crosses a GROUPS link unchanged.
// An expression: [role]. Needs: state.
[state.role]
