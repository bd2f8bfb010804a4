// The users an assignment listing reads (`u`): those $users names, each by its key (an index
// seek), or, when it names none, every user of the environment. One MATCH filtered by
// `$users IS NULL OR u.key IN $users` read every user of the environment either way, and a
// grant's answer is read back this way, inside the grant's transaction.
CALL () {
  UNWIND CASE WHEN $users IS NULL THEN [] ELSE $users END AS userKey
  MATCH (u:User {env: $env, key: userKey})
  RETURN u
  UNION
  UNWIND CASE WHEN $users IS NULL THEN [$env] ELSE [] END AS everyone
  // `key IS NOT NULL` (always true): an index seek on the environment's users, not a scan of every environment's.
  MATCH (u:User {env: everyone}) WHERE u.key IS NOT NULL
  RETURN u
}
