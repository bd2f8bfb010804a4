// @invalidates none
// @changes none
// @row { key: string; actions: string[] | null; actions_json: string | null }
// Takes the write lock on the governed resources (read-modify-write of their action map follows).
MATCH (r:Resource {env: $env}) WHERE r.key IN $keys
SET r._lock = true
RETURN r.key AS key, r.actions AS actions, r.actions_json AS actions_json
