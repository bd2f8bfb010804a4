// @invalidates none
// @changes none
// @row { recent: number; oldest: string | null }
// The requester's recent requests of one elements config (operation approvals and access
// requests), counted under the user's write lock: two creates of the same user wait for each
// other, so the hourly bound (ELEMENTS_REQUESTS_PER_HOUR) holds under concurrency. No row: no such user.
MATCH (u:User {env: $env, key: $user})
SET u._lock = true
REMOVE u._lock
WITH u
OPTIONAL MATCH (u)<-[:REQUESTED_BY]-(a:OperationApproval)
WHERE a.config_id = $config AND a.created_at >= $since
RETURN count(a) AS recent, min(a.created_at) AS oldest
