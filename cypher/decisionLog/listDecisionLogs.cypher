// A page of an environment's decision log, newest first, filtered; with the total.
MATCH (d:DecisionLog {env: $env})
WHERE ($user IS NULL OR d.user = $user)
  AND ($resource IS NULL OR d.resource_type = $resource OR d.resource_type + ':' + d.resource_key = $resource)
  AND ($decision IS NULL OR d.decision = $decision)
  AND ($from IS NULL OR d.at >= $from)
  AND ($to IS NULL OR d.at <= $to)
WITH d ORDER BY d.at DESC, d.id
WITH collect(d {.id, .at, .user, .action, .resource_type, .resource_key, .tenant, .decision, .reason}) AS found
RETURN size(found) AS total, found[$skip..$skip + $limit] AS page
