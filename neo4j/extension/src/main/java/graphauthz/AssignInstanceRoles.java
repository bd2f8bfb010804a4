package graphauthz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Node;
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
 * user and instance found once by its unique index, the batch's users locked (in id order; the
 * instances are not: GrantEdges.mergeFromLocked) before an item's existing edge is looked for from
 * the end that is not dense, then the edge created, or an expired one renewed (GrantEdges,
 * fragments/renewExpiredGrant). Statement:
 * cypher/assignments/assignInstanceRolesExt.cypher; docs/walk-extension.md ("Writes").
 */
public final class AssignInstanceRoles {
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
        for (Node role : RuleTables.nodes(tx, RuleTables.ROLE, "env", env)) {
            if (role.getProperty("key", null) instanceof String key) tenantRoles.add(key);
        }
        Set<String> resourceRoles = new HashSet<>();
        for (String resource : resourceKeys) {
            for (Node role : RuleTables.nodes(tx, RuleTables.RESOURCE_ROLE, "env", env, "resource", resource)) {
                if (role.getProperty("key", null) instanceof String key) resourceRoles.add(resource + ':' + key);
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
            // The batch's users locked at once, in id order (concurrent batches sharing users wait
            // for each other without a deadlock); their instances are not locked (mergeFromLocked).
            long[] locked = Arrays.stream(userIds).filter(id -> id >= 0).distinct().sorted().toArray();
            if (locked.length > 0) ktx.locks().acquireExclusiveNodeLock(locked);
            // The (user, tenant) pairs of the written items, in the order first written (user by its index in `users`).
            Set<Pair> pairs = new LinkedHashSet<>();
            for (int k = 0; k < instances.size(); k++) {
                int userIndex = (int) number(userOf.get(k));
                long user = userIds[userIndex];
                if (user < 0) continue;
                String resource = resources.get(k);
                Reads.Instance instance = reads.instance(env, resource, instances.get(k));
                if (instance == null) continue;
                String tenant = tenants.get(k);
                if (tenant != null && !tenant.equals(instance.tenant())) continue;
                String role = roles.get(k);
                if (role == null || !(resourceRoles.contains(resource + ':' + role) || tenantRoles.contains(role))) continue;
                Object expiry = expires.get(k);
                Long expiresAt = expiry == null ? null : number(expiry);
                GrantEdges.Merged merged = edges.mergeFromLocked(user, instance.id(), role, instance.tenant(), expiresAt, nowIso, nowMs);
                row.count(merged, instance.tenant());
                pairs.add(new Pair(userIndex, instance.tenant()));
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
