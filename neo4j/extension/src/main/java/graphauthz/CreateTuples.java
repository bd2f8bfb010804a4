package graphauthz;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Transaction;
import org.neo4j.kernel.impl.coreapi.InternalTransaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

/**
 * graphauthz.createTuples: what cypher/assignments/createTuples.cypher writes and answers (same
 * parameters, same row, same edges and properties) through the kernel's API, as
 * AssignInstanceRoles does for role assignments: each item's subject and object found by their
 * unique index (each instance once a call), the relation
 * checked against the environment's, both ends locked, then the RELATED edge of that relation made
 * or an expired one renewed (GrantEdges). Statement: cypher/assignments/createTuplesExt.cypher;
 * docs/walk-extension.md ("Writes").
 */
public final class CreateTuples {
    static final Label RELATION = Label.label("Relation");

    @Context
    public Transaction tx;

    @Procedure(name = "graphauthz.createTuples", mode = Mode.WRITE)
    @Description("Writes a batch of relationship tuples as cypher/assignments/createTuples.cypher does, with the count of edges created.")
    public Stream<GrantRow> createTuples(@Name("env") String env, @Name("items") List<Map<String, Object>> items,
            @Name("objectTypes") List<String> objectTypes, @Name("nowIso") String nowIso, @Name("nowMs") long nowMs) {
        Set<String> relations = new HashSet<>();
        for (String objectType : objectTypes) {
            for (Node rel : RuleTables.nodes(tx, RELATION, "env", env, "resource", objectType)) {
                relations.add(rel.getProperty("resource", "") + ":" + rel.getProperty("key", "") + ":" + rel.getProperty("subject_resource", ""));
            }
        }
        GrantRow row = new GrantRow();
        try (Reads reads = new Reads(tx);
                GrantEdges edges = new GrantEdges(((InternalTransaction) tx).kernelTransaction(), "RELATED", "relation")) {
            for (Map<String, Object> x : items) {
                String subjectType = (String) x.get("subject_type");
                String objectType = (String) x.get("object_type");
                String relation = (String) x.get("relation");
                if (!relations.contains(objectType + ":" + relation + ":" + subjectType)) continue;
                Reads.Instance object = reads.instance(env, objectType, x.get("object_key"));
                Reads.Instance subject = reads.instance(env, subjectType, x.get("subject_key"));
                if (object == null || subject == null) continue;
                // s.tenant = coalesce(x.tenant, s.tenant) AND o.tenant = s.tenant: a missing tenant matches nothing.
                String subjectTenant = subject.tenant();
                Object tenant = x.get("tenant");
                if (subjectTenant == null || (tenant != null && !subjectTenant.equals(tenant)) || !subjectTenant.equals(object.tenant())) continue;
                Object expiry = x.get("expires_at");
                Long expiresAt = expiry instanceof Number n ? n.longValue() : null;
                GrantEdges.Merged merged = edges.merge(subject.id(), object.id(), relation, subjectTenant, expiresAt, nowIso, nowMs);
                row.count(merged, subjectTenant);
            }
        } catch (KernelException | RuntimeException e) {
            throw GrantEdges.failure("createTuples", e);
        }
        return Stream.of(row);
    }
}
