// @invalidates none
// @changes none
// @row { others: { id: string; beat: number }[] }
// One replica's heartbeat (src/db/replicas.ts): moves the counter `beat` of its own
// (:Replica {id: $id}) and answers every other replica's id and counter; each replica times
// how long a counter stays still by its own clock. `seen` (the database's clock) serves only to
// drop heartbeats a day old (replicas that stopped without leaving).
MERGE (me:Replica {id: $id})
SET me.beat = coalesce(me.beat, 0) + 1, me.seen = timestamp()
WITH me
CALL (me) {
  OPTIONAL MATCH (other:Replica) WHERE other.id <> me.id
  WITH other, other.seen < timestamp() - 86400000 AS stale
  CALL (other, stale) {
    WITH other, stale WHERE stale
    DELETE other
  }
  RETURN collect(CASE WHEN NOT stale THEN {id: other.id, beat: other.beat} END) AS others
}
RETURN others
