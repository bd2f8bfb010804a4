// @invalidates none
// A batch of sampled decisions (the decision log), each in the environment it was asked in.
UNWIND $entries AS d
CREATE (:DecisionLog:InEnv {env: d.env, id: d.id, at: d.at, user: d.user, action: d.action, resource_type: d.resource_type,
                            resource_key: d.resource_key, tenant: d.tenant, decision: d.decision, reason: d.reason})
