// @row { sessions: number; approvals: { status: string; n: number }[] }
// Operator gauges for GET /metrics: live sessions and approvals by status, summed over every
// environment on purpose (a deployment-wide count for the operator; no record leaves, only numbers).
CALL () {
  MATCH (s:Session) WHERE s.expires_at > $nowIso
  RETURN count(s) AS sessions
}
OPTIONAL MATCH (a:OperationApproval)
WITH sessions, coalesce(a.status, 'pending') AS status, count(a) AS n
RETURN sessions, [x IN collect({status: status, n: n}) WHERE x.n > 0] AS approvals
