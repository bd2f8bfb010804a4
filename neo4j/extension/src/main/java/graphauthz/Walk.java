package graphauthz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.function.Predicate;

import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.RelationshipType;

/**
 * The walk of the permission rule (cypher/fragments/reachableStates.cypher), one method per rule step
 * as the fragments under cypher/fragments/rule/ are, over the core API in the calling transaction.
 * A state (node, role) reads "role is held (forward) or needed (backward) on the instance node".
 * Breadth first, each state visited once, at most `depth` hops; one hop past the limit is looked at
 * only to tell whether the limit cut the search short (`depthLimited`).
 *
 * Where Cypher would yield null (a missing property in a string concatenation), the trail is null
 * too (Walk.cat), so that explanations are the same strings.
 */
final class Walk {
    static final RelationshipType RELATED = RelationshipType.withName("RELATED");
    static final RelationshipType GROUPS = RelationshipType.withName("GROUPS");
    static final RelationshipType HAS_ROLE = RelationshipType.withName("HAS_ROLE");
    static final RelationshipType HAS_TENANT_ROLE = RelationshipType.withName("HAS_TENANT_ROLE");
    static final Label GROUP = Label.label("Group");

    /** A state of the walk; `until`: the earliest expires_at on the way to it (null: none). */
    static final class State {
        final Node node;
        final String role;
        final Long until;
        final String trail;
        final Key key;

        State(Node node, String role, Long until, String trail) {
            this.node = node;
            this.role = role;
            this.until = until;
            this.trail = trail;
            this.key = stateKey(node, role);
        }
    }

    /**
     * A state's identity: its node (Walk.id) and role. The Cypher's state key is the string
     * "<elementId>|<role>"; a record compares the same pairs without building a string for each
     * state (a list visits hundreds).
     */
    record Key(long node, String role) {}

    /** A user's direct role assignment (fragments/rule/directAssignments). */
    record Assignment(Node node, String role, Long until) {
        Key stateKey() {
            return Walk.stateKey(node, role);
        }
    }

    /**
     * An edge one hop may follow (fragments/rule/linksOfState): whether it is a GROUPS edge, its
     * `relation` (null on a GROUPS edge) and expires_at (null: none, or not a number), read from the
     * cursor that found it.
     */
    record Link(Node neighbour, boolean groups, Node subject, Node object, Object relation, Long expiresAt) {}

    /** What a walk reached (fragments/reachableStates' reachedStates, depthLimited). */
    record Reached(List<State> states, boolean depthLimited) {}

    private final Reads reads;
    private final RuleTables rule;
    private final long nowMs;
    private final long depth;
    private final boolean searchForward;
    private final boolean withTrails;
    /** Whether the user holds a live direct role on the node of this id (Walk.id) (never: none known). */
    private final LongPredicate directNode;
    /**
     * Each visited node's `resource` (its type), read once a walk: a property read walks the node's
     * property chain in the store, and one node is looked at by several steps (each link's subject
     * and object, the hierarchy, the caller's filter).
     */
    private final Map<Long, Object> types = new HashMap<>();
    /**
     * With `withKeys` (list-objects): each visited node's key and tenant, read in the same pass over
     * its properties as its type, for the nodes the caller lists (one pass instead of two).
     */
    private final Map<Long, Object[]> keys;
    /**
     * Each visited node's live links, read once a walk: they depend on the node alone, and a node is
     * often reached in several states (each role the hierarchy implies there).
     */
    private final Map<Long, List<Link>> linksByNode = new HashMap<>();

    Walk(Reads reads, RuleTables rule, long nowMs, long depth, boolean searchForward, boolean withTrails, Set<Long> directNodes) {
        this(reads, rule, nowMs, depth, searchForward, withTrails, directNodes::contains, false);
    }

    Walk(Reads reads, RuleTables rule, long nowMs, long depth, boolean searchForward, boolean withTrails, Set<Long> directNodes, boolean withKeys) {
        this(reads, rule, nowMs, depth, searchForward, withTrails, directNodes::contains, withKeys);
    }

    Walk(Reads reads, RuleTables rule, long nowMs, long depth, boolean searchForward, boolean withTrails, LongPredicate directNode, boolean withKeys) {
        this.reads = reads;
        this.keys = withKeys ? new HashMap<>() : null;
        this.rule = rule;
        this.nowMs = nowMs;
        this.depth = depth;
        this.searchForward = searchForward;
        this.withTrails = withTrails;
        this.directNode = directNode;
    }

    /** A node's id within this transaction (the state keys and the sets of visited nodes). */
    @SuppressWarnings("deprecation")
    static long id(Node node) {
        return node.getId();
    }

    /** The node's `resource` property (its type; null when missing), read once in this walk. */
    Object typeOf(Node node) {
        long id = id(node);
        Object type = types.get(id);
        if (type == null && !types.containsKey(id)) {
            if (keys == null) {
                type = reads.typeOf(id);
            } else {
                Object[] props = reads.typeKeyAndTenant(id);
                type = props[0];
                keys.put(id, new Object[] {props[1], props[2]});
            }
            types.put(id, type);
        }
        return type;
    }

    /** The node's type as the caller read it already (a check's instance, read with its key and tenant): typeOf answers it without reading again. */
    void knowType(Node node, Object type) {
        if (keys == null) types.putIfAbsent(id(node), type);
    }

    /** With `withKeys`: the node's key and tenant ({key, tenant}), read with its type (once in this walk). */
    Object[] keyAndTenant(Node node) {
        typeOf(node);
        return keys.get(id(node));
    }

    static Key stateKey(Node node, String role) {
        return new Key(id(node), role);
    }

    /** fragments/reachableStates: every state at most `depth` hops from `start`, in visiting order. */
    Reached reachableStates(List<State> start, Set<Key> stopWhenReached) {
        return reachableStates(start, stopWhenReached.isEmpty() ? null : stopWhenReached::contains);
    }

    /** The same, stopping after the hop that reaches a state `stopWhenReached` accepts (null: none stops it). */
    Reached reachableStates(List<State> start, Predicate<Key> stopWhenReached) {
        List<State> states = new ArrayList<>();
        Set<Key> keys = new HashSet<>();
        int withinLimit = 0;
        int beyondLimit = 0;
        boolean stopped = false;
        List<State> front = List.of();
        for (long hop = 0; hop <= depth + 1; hop++) {
            if ((hop > 0 && front.isEmpty()) || stopped) break;
            List<State> next = new ArrayList<>();
            List<State> candidates = new ArrayList<>();
            if (hop == 0) {
                for (State s : start) expand(s, candidates);
            } else {
                for (State state : front) {
                    for (Link link : linksOfState(state)) {
                        List<String> roles = link.groups() ? groupStep(state) : derivationStep(state, link);
                        for (String role : roles) {
                            expand(new State(link.neighbour(), role, untilThrough(state, link.expiresAt()), hopTrail(state, link)), candidates);
                        }
                    }
                }
            }
            for (State candidate : candidates) {
                if (!keys.add(candidate.key)) continue;
                next.add(candidate);
                states.add(candidate);
                if (hop <= depth) withinLimit++;
                else beyondLimit++;
                if (stopWhenReached != null && stopWhenReached.test(candidate.key)) stopped = true;
            }
            front = next;
        }
        return new Reached(withinLimit == states.size() ? states : states.subList(0, withinLimit), beyondLimit > 0);
    }

    /** A candidate, then the states the hierarchy gives at its node (the Cypher's `[state] + hierarchyStep`). */
    private void expand(State state, List<State> out) {
        out.add(state);
        out.addAll(hierarchyStep(state));
    }

    /** fragments/rule/grantIsLive: an edge whose expires_at (epoch ms) is at or before now grants nothing. */
    static boolean grantIsLive(Relationship grant, long nowMs) {
        return isLive(grant.getProperty("expires_at", null), nowMs);
    }

    /** grantIsLive on an edge's expires_at value, already read. */
    static boolean isLive(Object expiresAt, long nowMs) {
        if (expiresAt == null) return true;
        // A non-numeric expires_at compares as null in Cypher: the edge grants nothing.
        return expiresAt instanceof Number n && compare(n, nowMs) > 0;
    }

    private static int compare(Number n, long value) {
        if (n instanceof Double || n instanceof Float) return Double.compare(n.doubleValue(), value);
        return Long.compare(n.longValue(), value);
    }

    /** fragments/rule/linksOfState: the live RELATED and GROUPS edges at the state's node. */
    List<Link> linksOfState(State state) {
        return linksByNode.computeIfAbsent(id(state.node), id -> linksOf(state.node));
    }

    /**
     * Only the edges that can carry a role from this node: a RELATED edge when a derivation starts
     * (forward) or ends (backward) at the node's type, a GROUPS edge forward only from a group (the
     * only records it starts at: docs/graph-model.md; an import refuses any other). Most states of a
     * forward walk sit on instances nothing is derived from, whose edges (often many: every role
     * assignment on them) are then not read at all.
     */
    private List<Link> linksOf(Node node) {
        boolean related = (searchForward ? rule.subjectTypes : rule.objectTypes).contains(typeOf(node));
        boolean groups = !searchForward || node.hasLabel(GROUP);
        if (!related && !groups) return List.of();
        List<Link> links = new ArrayList<>();
        Direction direction = searchForward ? Direction.OUTGOING : Direction.INCOMING;
        reads.links(id(node), direction, related, groups, (other, isGroups, relation, expiresAt) -> {
            if (!isLive(expiresAt, nowMs)) return;
            Node neighbour = reads.nodeOf(other);
            Long until = asLong(expiresAt);
            links.add(searchForward
                    ? new Link(neighbour, isGroups, node, neighbour, relation, until)
                    : new Link(neighbour, isGroups, neighbour, node, relation, until));
        });
        return links;
    }

    /** fragments/rule/groupStep: a role on a group is the same role on the grouped instance. */
    List<String> groupStep(State state) {
        return List.of(state.role);
    }

    /** fragments/rule/derivationStep: a relationship tuple carries a role across through a derivation. */
    List<String> derivationStep(State state, Link link) {
        Object relation = link.relation();
        if (!(relation instanceof String)) return List.of();
        List<RuleTables.Derivation> candidates = rule.derivationsByRelation.get(relation);
        if (candidates == null) return List.of();
        Object subjectType = typeOf(link.subject());
        Object objectType = typeOf(link.object());
        List<String> roles = new ArrayList<>(1);
        Boolean objectIsDirect = null;
        for (RuleTables.Derivation d : candidates) {
            if (!eq(d.onResource(), subjectType) || !eq(d.resource(), objectType)) continue;
            if (!eq(searchForward ? d.fromRole() : d.role(), state.role)) continue;
            if (d.noDirectRolesOnObject()) {
                if (objectIsDirect == null) objectIsDirect = directNode.test(id(link.object()));
                if (objectIsDirect) continue;
            }
            roles.add(searchForward ? d.role() : d.fromRole());
        }
        return roles;
    }

    /** fragments/rule/untilThrough: the earlier of the predecessor's `until` and the edge's expires_at (read with its relation). */
    static Long untilThrough(State state, Long expiresAt) {
        if (expiresAt == null || (state.until != null && state.until < expiresAt)) return state.until;
        return expiresAt;
    }

    /** fragments/rule/hierarchyStep: a state is also the state of each role its role extends (forward) or is extended by (backward). */
    List<State> hierarchyStep(State state) {
        List<RuleTables.Hierarchy> entries = rule.hierarchyByRole.get(state.role);
        if (entries == null) return List.of();
        Object nodeType = typeOf(state.node);
        if (!(nodeType instanceof String type)) return List.of();
        RuleTables.Hierarchy entry = null;
        for (RuleTables.Hierarchy e : entries) {
            if (type.equals(e.resource()) || (e.resource() == null && !rule.resourceRoleKeys.contains(type + "|" + state.role))) {
                entry = e;
                break;
            }
        }
        if (entry == null) return List.of();
        List<State> implied = new ArrayList<>();
        for (String other : searchForward ? entry.up() : entry.down()) {
            if (entry.resource() == null && rule.resourceRoleKeys.contains(type + "|" + other)) continue;
            implied.add(new State(state.node, other, state.until, extendsTrail(state, type, other)));
        }
        return implied;
    }

    private String hopTrail(State state, Link link) {
        if (!withTrails) return "";
        Object relation = link.relation();
        String via = relation == null ? "groups" : String.valueOf(relation);
        Object type = typeOf(link.neighbour());
        Object key = link.neighbour().getProperty("key", null);
        return searchForward ? cat(state.trail, " -", via, "-> ", type, ":", key) : cat(type, ":", key, " -", via, "-> ", state.trail);
    }

    private String extendsTrail(State state, String type, String implied) {
        if (!withTrails) return "";
        Object key = state.node.getProperty("key", null);
        String at = cat(type, ":", key);
        if (searchForward) return cat(state.trail, "#", state.role, " -extends-> ", at, "#", implied);
        if (at == null || state.trail == null) return null;
        String rest = state.trail.startsWith(at + "#") ? "" : state.trail.substring(Math.min(at.length(), state.trail.length()));
        return cat(at, "#", implied, " -extends-> ", at, "#", state.role, rest);
    }

    /**
     * fragments/rule/directAssignments: the holder's live HAS_ROLE edges, each edge's `role` and
     * `expires_at` read from the cursor that found it (Reads).
     */
    static List<Assignment> directAssignments(Reads reads, Node holder, long nowMs) {
        List<Assignment> out = new ArrayList<>();
        if (holder == null) return out;
        reads.roleGrants(id(holder), (other, isGroups, role, expiresAt) -> {
            Assignment a = liveAssignment(reads, other, role, expiresAt, nowMs);
            if (a != null) out.add(a);
        });
        return out;
    }

    /** The assignment an edge to `node` with this `role` and `expires_at` makes, or null when it is not live (fragments/rule/grantIsLive). */
    static Assignment liveAssignment(Reads reads, long node, Object role, Object expiresAt, long nowMs) {
        return isLive(expiresAt, nowMs) ? new Assignment(reads.nodeOf(node), role instanceof String s ? s : null, asLong(expiresAt)) : null;
    }

    /** fragments/rule/tenantScopeGrant: a live tenant role assignment whose role gives the action. */
    static boolean tenantScopeGrant(Relationship grant, List<String> tenantRolesGranting, long nowMs) {
        Object role = grant.getProperty("role", null);
        return role instanceof String && tenantRolesGranting.contains(role) && grantIsLive(grant, nowMs);
    }

    static Long asLong(Object value) {
        return value instanceof Number n ? n.longValue() : null;
    }

    static boolean eq(Object a, Object b) {
        return a != null && a.equals(b);
    }

    /** Cypher's `+` on strings: null when any part is null. */
    static String cat(Object... parts) {
        StringBuilder sb = new StringBuilder();
        for (Object p : parts) {
            if (p == null) return null;
            sb.append(p);
        }
        return sb.toString();
    }
}
