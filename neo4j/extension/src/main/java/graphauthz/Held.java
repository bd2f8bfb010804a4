package graphauthz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.neo4j.graphdb.Node;

/**
 * A user's live direct role assignments (fragments/rule/directAssignments), read as a check needs
 * them. First only where the user's HAS_ROLE edges end (the edge records, no property record); an
 * edge's `role` and `expires_at` are read when the walk asks about its end node. A check's walk
 * reaches a few nodes, and a user may hold many assignments: reading every one's properties was a
 * fifth of a check's time in the procedure (docs/benchmarks.md, "A user's assignments read as the walk
 * asks"). The answers are those of the list Walk.directAssignments reads whole.
 */
final class Held {
    private final Reads reads;
    private final long nowMs;
    /** Per end node (Walk.id), the ids of the user's HAS_ROLE edges to it, in the order the store gives them. */
    private final Map<Long, List<Long>> edgesByNode = new HashMap<>();
    /** Per end node asked about, its live assignments (role, until), read once. */
    private final Map<Long, List<Walk.Assignment>> liveByNode = new HashMap<>();

    private Held(Reads reads, long nowMs) {
        this.reads = reads;
        this.nowMs = nowMs;
    }

    /**
     * The assignments of `holder` (null: none), and the ids of its HAS_TENANT_ROLE edges (its tenant
     * role assignments) in `tenantRoleEdges`, found in the same pass over its relationships.
     */
    static Held withTenantRoles(Reads reads, Node holder, long nowMs, List<Long> tenantRoleEdges) {
        Held held = new Held(reads, nowMs);
        if (holder != null) reads.userGrantEnds(Walk.id(holder), held::add, (other, edgeId) -> tenantRoleEdges.add(edgeId));
        return held;
    }

    private void add(long node, long edgeId) {
        edgesByNode.computeIfAbsent(node, k -> new ArrayList<>(1)).add(edgeId);
    }

    /** The live assignments on the node of this id (its edges' properties read the first time it is asked about). */
    List<Walk.Assignment> at(long node) {
        List<Long> edges = edgesByNode.get(node);
        if (edges == null) return List.of();
        List<Walk.Assignment> live = liveByNode.get(node);
        if (live == null) {
            live = new ArrayList<>(edges.size());
            for (long edgeId : edges) {
                Object[] roleAndExpiry = reads.roleAndExpiry(edgeId);
                // Deleted since its end was read (a walk reads committed state without locks): it grants nothing.
                if (roleAndExpiry == null) continue;
                Walk.Assignment a = Walk.liveAssignment(reads, node, roleAndExpiry[0], roleAndExpiry[1], nowMs);
                if (a != null) live.add(a);
            }
            liveByNode.put(node, live);
        }
        return live;
    }

    /** Whether the user holds a live direct role on the node of this id (the Walk's directNode). */
    boolean anyAt(long node) {
        return !at(node).isEmpty();
    }

    /** Whether the user holds the state `key` directly (a live assignment of that role on that node). */
    boolean holds(Walk.Key key) {
        for (Walk.Assignment a : at(key.node())) if (Objects.equals(a.role(), key.role())) return true;
        return false;
    }

    /** The `until` of every live assignment that is the state `key` (null: it never expires). */
    List<Long> untilsOf(Walk.Key key) {
        List<Long> out = new ArrayList<>();
        for (Walk.Assignment a : at(key.node())) if (Objects.equals(a.role(), key.role())) out.add(a.until());
        return out;
    }

    /** Every live assignment (every edge's properties read). */
    List<Walk.Assignment> all() {
        List<Walk.Assignment> out = new ArrayList<>();
        for (Long node : edgesByNode.keySet()) out.addAll(at(node));
        return out;
    }
}
