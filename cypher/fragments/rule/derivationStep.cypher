// Rule step: relation through a derivation. A relationship tuple `subject -relation-> object`
// (a RELATED edge) carries a role across when a derivation (fragments/derivations) has that
// relation, `on_resource` = the subject's type and `resource` = the object's type: forward,
// `from_role` held on the subject gives `role` on the object; backward, `role` needed on the
// object is given by `from_role` on the subject. A derivation with `no_direct_roles_on_object`
// (Permit's `when`) does not apply on an object that is one of directNodes (the user holds a
// direct role on it: fragments/rule/directAssignments). Group membership is this step too: a
// group's `member` role derives its roles over the group's relations (docs/graph-model.md).
// An expression: [role]. Needs: state, link (fragments/rule/linksOfState), derivations,
// directNodes, searchForward.
[derivation IN derivations WHERE derivation.relation = link.edge.relation
        AND derivation.on_resource = link.subject.resource AND derivation.resource = link.object.resource
        AND state.role = CASE WHEN searchForward THEN derivation.from_role ELSE derivation.role END
        AND NOT (derivation.no_direct_roles_on_object AND elementId(link.object) IN directNodes)
      | CASE WHEN searchForward THEN derivation.role ELSE derivation.from_role END]
