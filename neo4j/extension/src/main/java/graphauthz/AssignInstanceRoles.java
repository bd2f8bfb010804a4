package graphauthz;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.ResourceIterator;
import org.neo4j.graphdb.Transaction;
import org.neo4j.kernel.api.KernelTransaction;
import org.neo4j.kernel.impl.coreapi.InternalTransaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

/**
 * graphauthz.assignInstanceRoles: what cypher/assignments/assignInstanceRoles.cypher writes and
 * answers (same parameters, same row, same edges and properties), through the kernel's API: each
 * user and instance found once by its unique index, an item's ends locked (in id order, as Cypher's
 * MERGE locks them) before its existing edge is looked for from the end with fewer HAS_ROLE edges,
 * then the edge created, or an expired one renewed (fragments/renewExpiredGrant). Statement:
 * cypher/assignments/assignInstanceRolesExt.cypher; docs/walk-extension.md ("Writes").
 */
public final class AssignInstanceRoles {
    static final Label ROLE = Label.label("Role");
    static final Label RESOURCE_ROLE = Label.label("ResourceRole");

    @Context
    public Transaction tx;

    /** The `// @row` of cypher/assignments/assignInstanceRoles.cypher (GrantRow) with its `members`. */
    public static final class Row extends GrantRow {
        public List<Map<String, Object>> members;
    }

    @Procedure(name = "graphauthz.assignInstanceRoles", mode = Mode.WRITE)
    @Description("Writes a batch of instance role assignments as cypher/assignments/assignInstanceRoles.cypher does, with the count of edges created.")
    public Stream<Row> assignInstanceRoles(@Name("env") String env, @Name("users") List<String> users,
            @Name("userOf") List<Object> userOf, @Name("roles") List<String> roles, @Name("tenants") List<String> tenants,
            @Name("resources") List<String> resources, @Name("instances") List<String> instances,
            @Name("expires") List<Object> expires, @Name("resourceKeys") List<String> resourceKeys,
            @Name("nowIso") String nowIso, @Name("nowMs") long nowMs) {
        InternalTransaction itx = (InternalTransaction) tx;
        KernelTransaction ktx = itx.kernelTransaction();
        Set<String> tenantRoles = new HashSet<>();
        try (ResourceIterator<Node> it = tx.findNodes(ROLE, "env", env)) {
            while (it.hasNext()) {
                Object key = it.next().getProperty("key", null);
                if (key instanceof String s) tenantRoles.add(s);
            }
        }
        Set<String> resourceRoles = new HashSet<>();
        for (String resource : resourceKeys) {
            try (ResourceIterator<Node> it = tx.findNodes(RESOURCE_ROLE, "env", env, "resource", resource)) {
                while (it.hasNext()) {
                    Object key = it.next().getProperty("key", null);
                    if (key instanceof String s) resourceRoles.add(resource + ':' + s);
                }
            }
        }
        Row row = new Row();
        row.members = new ArrayList<>();
        try (Reads reads = new Reads(tx); GrantEdges edges = new GrantEdges(ktx, "HAS_ROLE", "role")) {
            long[] userIds = new long[users.size()];
            for (int u = 0; u < users.size(); u++) {
                Node found = reads.findOne(Allowed.USER_KEY, env, users.get(u));
                userIds[u] = found == null ? -1 : found.getId();
            }
            // The (user, tenant) pairs of the written items, in the order first written (user by its index in `users`).
            Set<Pair> pairs = new LinkedHashSet<>();
            String lastInstanceRef = null;
            long instanceId = -1;
            String instanceTenant = null;
            for (int k = 0; k < instances.size(); k++) {
                int userIndex = (int) number(userOf.get(k));
                long user = userIds[userIndex];
                if (user < 0) continue;
                String resource = resources.get(k);
                String instance = instances.get(k);
                String ref = resource + '\u0000' + instance;
                if (!ref.equals(lastInstanceRef)) {
                    lastInstanceRef = ref;
                    Node i = reads.findOne(Allowed.INSTANCE_KEY, env, resource, instance);
                    instanceId = i == null ? -1 : i.getId();
                    instanceTenant = i == null ? null : (String) i.getProperty("tenant", null);
                }
                if (instanceId < 0) continue;
                String tenant = tenants.get(k);
                if (tenant != null && !tenant.equals(instanceTenant)) continue;
                String role = roles.get(k);
                if (role == null || !(resourceRoles.contains(resource + ':' + role) || tenantRoles.contains(role))) continue;
                Object expiry = expires.get(k);
                Long expiresAt = expiry == null ? null : number(expiry);
                GrantEdges.Merged merged = edges.merge(user, instanceId, role, instanceTenant, expiresAt, nowIso, nowMs);
                row.count(merged, instanceTenant);
                pairs.add(new Pair(userIndex, instanceTenant));
            }
            for (Pair pair : pairs) {
                if (edges.inTenant(userIds[pair.user()], pair.tenant())) continue;
                Map<String, Object> member = new LinkedHashMap<>();
                member.put("user", users.get(pair.user()));
                member.put("tenant", pair.tenant());
                row.members.add(member);
            }
        } catch (KernelException | RuntimeException e) {
            // A user or instance found at the start was deleted by a commit before its edge was
            // written (its lock was waited for): the transaction is asked again, where it is not found.
            throw GrantEdges.failure("assignInstanceRoles", e);
        }
        return Stream.of(row);
    }

    /** A user (its index in the call's `users`) and a tenant key (null: an instance without one). */
    private record Pair(int user, String tenant) {}

    private static long number(Object v) {
        if (v instanceof Number n) return n.longValue();
        throw new IllegalArgumentException("expected a number, got " + v);
    }
}
