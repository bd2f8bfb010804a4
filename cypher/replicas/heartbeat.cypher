// @invalidates none
// One replica's heartbeat (src/db/replicas.ts): writes its own (:Replica {id: $id}) with the
// database's clock, drops heartbeats a day old (replicas that stopped without leaving), and
// answers the ids of the other replicas whose heartbeat is newer than $liveMs. One clock (the
// database's) for every replica's age.
MERGE (me:Replica {id: $id})
SET me.seen = timestamp()
WITH me
CALL (me) {
  OPTIONAL MATCH (other:Replica) WHERE other.id <> me.id
  WITH other, timestamp() - other.seen AS age
  CALL (other, age) {
    WITH other WHERE age > 86400000
    DELETE other
  }
  RETURN collect(CASE WHEN age < $liveMs THEN other.id END) AS others
}
RETURN others
