// The organisation (docs/behaviour.md section 14): one node holding the organisation id generated at the
// first start (cypher/system/organization.cypher); the constraint keeps replicas starting
// together from making two.
CREATE CONSTRAINT organization_singleton IF NOT EXISTS FOR (o:Organization) REQUIRE o.singleton IS UNIQUE;
