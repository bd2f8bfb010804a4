// The user `u`, already locked by this transaction, joins the tenant `t` unless it is in it: a
// check and a CREATE, not a MERGE. A MERGE that creates locks both ends first, and the tenant's
// node then stayed locked until the commit: every first grant of the tenant's users waited for
// the whole transaction of the one before. Creating an edge takes no exclusive lock on a dense
// node such as a tenant. Every statement that links a user to a tenant holds the user's lock
// (a MERGE takes it too), so two transactions never both create the edge.
CALL (u, t) {
  WITH u, t WHERE NOT EXISTS { (u)-[:IN_TENANT]->(t) }
  CREATE (u)-[:IN_TENANT]->(t)
}
