// Replica heartbeats (cypher/replicas/heartbeat.cypher): one node per running replica of the service.
CREATE CONSTRAINT replica_id IF NOT EXISTS FOR (r:Replica) REQUIRE r.id IS UNIQUE;
