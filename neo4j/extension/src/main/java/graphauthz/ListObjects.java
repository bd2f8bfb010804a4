package graphauthz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.ResourceIterator;
import org.neo4j.graphdb.Transaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

/**
 * graphauthz.listObjects: the row of cypher/decisions/listObjects.cypher (one page of the $type
 * instances on which the user may do the action, in key order). Statement: cypher/walk/listObjects.cypher.
 */
public final class ListObjects {
    @Context
    public Transaction tx;

    /**
     * The row of cypher/walk/listObjects.cypher: the page in one string (`page`: for each object in
     * key order, the index of its tenant in `tenants`, `:`, then its key as `<length>:<key>` in UTF-16
     * units, or `~` for none), the distinct tenants in order of first appearance, validUntil and the
     * environment's revision. cypher/decisions/listObjects.cypher answers the same page as lists
     * (`keys`, `tenantOf`); one string spares Neo4j converting 191 values into Cypher's and Bolt's
     * (a twelfth of a list's samples) and the service decoding them (docs/benchmarks.md).
     */
    public static final class Row {
        public String page;
        public List<Object> tenants;
        /** The earliest time the list can change without a write (epoch ms), or null: see the statement. */
        public Long validUntil;
        /** The environment's revision (null: no such environment), read at the start of the call, as graphauthz.allowed answers it. */
        public Long revision;
    }

    @Procedure(name = "graphauthz.listObjects", mode = Mode.READ)
    @Description("One page of the instances of a type on which a user may do an action, as cypher/decisions/listObjects.cypher answers it.")
    public Stream<Row> listObjects(@Name("env") String env, @Name("user") String userKey, @Name("action") String action,
            @Name("type") String type, @Name("tenant") String tenant, @Name("after") String after, @Name("limit") long limit,
            @Name("depth") long depth, @Name("nowMs") long nowMs) {
        return Vanished.retry(() -> {
            try (Reads reads = new Reads(tx)) {
                return listObjectsOnce(reads, env, userKey, action, type, tenant, after, limit, depth, nowMs);
            }
        });
    }

    private Stream<Row> listObjectsOnce(Reads reads, String env, String userKey, String action, String type, String tenant, String after, long limit, long depth, long nowMs) {
        Row row = new Row();
        row.page = "";
        row.tenants = new ArrayList<>();
        row.revision = Allowed.revision(reads, env);
        Node user = env == null || userKey == null ? null : reads.findOne(Allowed.USER_KEY, env, userKey);
        if (user == null) return Stream.of(row);
        RuleTables rule = RuleTables.read(tx, env, type == null ? List.of() : List.of(type));

        // fragments/walkFromUser: the forward walk from the user's direct role assignments.
        List<Walk.Assignment> assignments = Walk.directAssignments(reads, user, nowMs);
        Set<Long> directNodes = new HashSet<>();
        List<Walk.State> start = new ArrayList<>(assignments.size());
        for (Walk.Assignment a : assignments) {
            directNodes.add(Walk.id(a.node()));
            start.add(new Walk.State(a.node(), a.role(), a.until(), ""));
        }
        Walk walk = new Walk(reads, rule, nowMs, depth, true, false, directNodes, true);
        Walk.Reached reached = walk.reachableStates(start, Set.of());

        RuleTables.RolesOnType roles = rule.rolesOn(type);
        List<String> instanceRolesGranting = Allowed.granting(roles.instance(), action);
        List<String> tenantRolesGranting = Allowed.granting(roles.tenant(), action);

        // Distinct instances, each looked at once (null: looked at and left out), its key read once
        // for the page's start and the sort (a comparison that read both keys would read each about
        // log2(n) times); the order is made by key below.
        Map<Long, Keyed> seen = new HashMap<>();
        // validUntil: the earliest `until` of every state that gives the action on a listed instance
        // (not only the first that reached it), as the statement's min(state.until).
        Map<Long, Boolean> listed = new HashMap<>();
        Long validUntil = null;
        for (Walk.State state : reached.states()) {
            if (!instanceRolesGranting.contains(state.role)) continue;
            Node instance = state.node;
            long id = Walk.id(instance);
            Boolean fits = listed.get(id);
            if (fits == null) {
                Keyed keyed = Walk.eq(walk.typeOf(instance), type) ? keyedAfter(walk, instance, after) : null;
                if (keyed != null && tenant != null && !Walk.eq(keyed.tenant(), tenant)) keyed = null;
                seen.put(id, keyed);
                listed.put(id, fits = keyed != null);
            }
            if (fits) validUntil = earlier(validUntil, state.until);
        }
        for (Relationship grant : user.getRelationships(Direction.OUTGOING, Walk.HAS_TENANT_ROLE)) {
            Node heldIn = grant.getEndNode();
            if (!heldIn.hasLabel(Allowed.TENANT)) continue;
            Object tenantKey = heldIn.getProperty("key", null);
            if (tenant != null && !Walk.eq(tenantKey, tenant)) continue;
            if (!Walk.tenantScopeGrant(grant, tenantRolesGranting, nowMs) || tenantKey == null) continue;
            validUntil = earlier(validUntil, Walk.asLong(grant.getProperty("expires_at", null)));
            try (ResourceIterator<Node> it = tx.findNodes(Allowed.INSTANCE, Map.of("env", env, "tenant", tenantKey))) {
                while (it.hasNext()) {
                    Node instance = it.next();
                    long id = Walk.id(instance);
                    // Left out by the walk's loop only for its type or tenant, which this instance of the tenant may pass.
                    if (seen.get(id) != null) continue;
                    seen.put(id, Walk.eq(walk.typeOf(instance), type) ? keyedAfter(walk, instance, after) : null);
                }
            }
        }
        // A derivation that applies only without a direct role on the object can start when a direct assignment expires.
        if (rule.anyNoDirectRolesOnObject) for (Walk.Assignment a : assignments) validUntil = earlier(validUntil, a.until());
        row.validUntil = validUntil;
        List<Keyed> page = new ArrayList<>(seen.size());
        for (Keyed k : seen.values()) if (k != null) page.add(k);
        page.sort((a, b) -> compareKeys(a.key(), b.key()));
        // Every listed instance is a $type instance (the filter above): its type is the one asked.
        Map<Object, Integer> tenantIndex = new HashMap<>();
        StringBuilder packed = new StringBuilder();
        for (Keyed k : page.subList(0, (int) Math.max(0, Math.min(limit, page.size())))) {
            Integer at = tenantIndex.get(k.tenant());
            if (at == null) {
                at = row.tenants.size();
                tenantIndex.put(k.tenant(), at);
                row.tenants.add(k.tenant());
            }
            packed.append(at).append(':');
            if (k.key() instanceof String key) packed.append(key.length()).append(':').append(key);
            else packed.append('~');
        }
        row.page = packed.toString();
        return Stream.of(row);
    }

    /** The earlier of two expiries (null: none). */
    private static Long earlier(Long a, Long b) {
        return b == null || (a != null && a < b) ? a : b;
    }

    /** An instance with its key and tenant, read once (the key for the sort, the tenant for the filter and the line). */
    private record Keyed(Object key, Object tenant, Node node) {}

    /**
     * The instance with its key and tenant (read by the walk in one pass over its properties, with
     * its type) when it comes after `after` (`$after IS NULL OR instance.key > $after`; every instance
     * when null), else null.
     */
    private static Keyed keyedAfter(Walk walk, Node instance, String after) {
        Object[] keyAndTenant = walk.keyAndTenant(instance);
        Object key = keyAndTenant[0];
        if (after != null && !(key instanceof String k && compareKeys(k, after) > 0)) return null;
        return new Keyed(key, keyAndTenant[1], instance);
    }

    /**
     * Cypher's order of strings (by code point); nulls last. UTF-16 units compare as code points
     * unless a surrogate meets another unit at the first difference (a supplementary code point
     * against one at U+E000 or above): only then is the rest compared by code point.
     */
    static int compareKeys(Object a, Object b) {
        if (a == null || b == null) return a == null ? (b == null ? 0 : 1) : -1;
        String x = a.toString();
        String y = b.toString();
        int n = Math.min(x.length(), y.length());
        for (int k = 0; k < n; k++) {
            char cx = x.charAt(k);
            char cy = y.charAt(k);
            if (cx == cy) continue;
            if (!Character.isSurrogate(cx) && !Character.isSurrogate(cy)) return Character.compare(cx, cy);
            return byCodePoint(x, y, k > 0 && Character.isHighSurrogate(x.charAt(k - 1)) ? k - 1 : k);
        }
        return Integer.compare(x.length(), y.length());
    }

    /** Code point by code point from index `from` (the start of a code point in both strings, equal before it). */
    private static int byCodePoint(String x, String y, int from) {
        int i = from;
        while (i < x.length() && i < y.length()) {
            int cx = x.codePointAt(i);
            int cy = y.codePointAt(i);
            if (cx != cy) return Integer.compare(cx, cy);
            i += Character.charCount(cx);
        }
        return Integer.compare(x.length(), y.length());
    }
}
