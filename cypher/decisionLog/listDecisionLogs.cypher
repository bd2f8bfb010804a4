// A page of an environment's decision log, newest first, filtered; with the total. Batches wholly
// outside [$from, $to] are skipped before their lists are opened.
MATCH (b:DecisionLogBatch {env: $env})
WHERE ($from IS NULL OR b.at >= $from) AND ($to IS NULL OR b.first_at <= $to)
UNWIND range(0, size(b.ids) - 1) AS i
WITH b.ids[i] AS id, b.ats[i] AS at, b.users[i] AS user, b.actions[i] AS action, b.types[i] AS resource_type,
     b.keys[i] AS resource_key, b.tenants[i] AS tenant, b.decisions[i] AS decision, b.reasons[i] AS reason
WHERE ($user IS NULL OR user = $user)
  AND ($resource IS NULL OR resource_type = $resource OR resource_type + ':' + resource_key = $resource)
  AND ($decision IS NULL OR decision = $decision)
  AND ($from IS NULL OR at >= $from)
  AND ($to IS NULL OR at <= $to)
WITH id, at, user, action, resource_type, resource_key, tenant, decision, reason
ORDER BY at DESC, id
WITH collect({id: id, at: at, user: user, action: action, resource_type: resource_type, resource_key: resource_key,
              tenant: tenant, decision: decision, reason: reason}) AS found
RETURN size(found) AS total, found[$skip..$skip + $limit] AS page
