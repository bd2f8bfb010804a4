// @invalidates $env
// @changes none
// @row { id: string }
// An apply that changes something takes the environment's write lock first (held until it
// commits), then plans again: two applies of one environment run one after the other, and each
// writes the difference to what the other left.
MATCH (e:Environment {id: $env})
SET e._lock = true
REMOVE e._lock
RETURN e.id AS id
