// The "<resource>:<action>" pairs of $pairs that name no action of an existing resource.
UNWIND $pairs AS p
OPTIONAL MATCH (r:Resource {env: $env, key: p.resource})
WITH p, r
WHERE r IS NULL OR NOT p.action IN coalesce(r.actions, [])
RETURN collect(p.text) AS invalid
