// @invalidates none
// @changes none
// @row none
// A replica that stops removes its heartbeat (src/db/replicas.ts), so that the others need not
// wait for it to age before they count themselves alone.
MATCH (me:Replica {id: $id})
DELETE me
