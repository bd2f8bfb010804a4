package graphauthz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.Label;
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
 * graphauthz.allowed: the rows of cypher/decisions/allowed.cypher (same columns, same meaning),
 * for a batch of permission questions. Statement: cypher/walk/allowed.cypher.
 */
public final class Allowed {
    static final Label USER = Label.label("User");
    static final Label INSTANCE = Label.label("Instance");
    static final Label TENANT = Label.label("Tenant");
    static final Label ENVIRONMENT = Label.label("Environment");

    @Context
    public Transaction tx;

    /** One answer: the `// @row` of cypher/decisions/allowed.cypher. */
    public static final class Row {
        public long idx;
        public boolean allow;
        public Long validUntil;
        public boolean depthLimited;
        public Map<String, Object> explanation;
        /** What the set rules read of the question's user and instance, when it asks (`stored: true`). */
        public Map<String, Object> stored;
        /**
         * The environment's revision (null: no such environment), the same on every row: read once, at
         * the start of the call, in the calling transaction (cypher/decisions/allowed.cypher reads it in
         * its own statement; here it saves the statement a subquery per row).
         */
        public Long revision;
    }

    /**
     * `checks`: the questions as a list of maps {user, action, type, key?, tenant?, stored?}, or the same
     * packed into one string (PackedChecks: what the service sends; the JavaScript driver spent 58-64 µs
     * packing a batch of eight checks as maps, 11-14 µs as one string: docs/benchmarks.md).
     */
    @Procedure(name = "graphauthz.allowed", mode = Mode.READ)
    @Description("Answers a batch of permission questions [{user, action, type, key?, tenant?}] (or the same packed as one string) as cypher/decisions/allowed.cypher does, with the environment's revision on every row.")
    public Stream<Row> allowed(@Name("env") String env, @Name("checks") Object checks, @Name("depth") long depth,
            @Name("defaultTenant") String defaultTenant, @Name("explain") boolean explain, @Name("nowMs") long nowMs) {
        List<Map<String, Object>> questions = PackedChecks.of(checks);
        return Vanished.retry(() -> {
            try (Reads reads = new Reads(tx)) {
                return allowedOnce(reads, env, questions, depth, defaultTenant, explain, nowMs);
            }
        });
    }

    private Stream<Row> allowedOnce(Reads reads, String env, List<Map<String, Object>> checks, long depth, String defaultTenant, boolean explain, long nowMs) {
        if (checks == null || checks.isEmpty()) return Stream.empty();
        Long revision = revision(reads, env);
        List<String> types = new ArrayList<>();
        for (Map<String, Object> q : checks) types.add(str(q.get("type")));
        RuleTables rule = RuleTables.read(tx, env, types);
        Map<String, Node> users = new HashMap<>();
        List<Row> rows = new ArrayList<>(checks.size());
        for (int i = 0; i < checks.size(); i++) {
            Row row = answer(reads, env, i, checks.get(i), depth, defaultTenant, explain, nowMs, rule, users);
            row.revision = revision;
            rows.add(row);
        }
        return rows.stream();
    }

    private Row answer(Reads reads, String env, int idx, Map<String, Object> question, long depth, String defaultTenant, boolean explain, long nowMs,
            RuleTables rule, Map<String, Node> users) {
        String resourceType = str(question.get("type"));
        String action = str(question.get("action"));
        String questionTenant = str(question.get("tenant"));
        Node user = user(reads, env, str(question.get("user")), users);
        Node target = reads.findOne(INSTANCE_KEY, env, resourceType, str(question.get("key")));
        RuleTables.RolesOnType roles = rule.rolesOn(resourceType);
        List<String> instanceRolesGranting = granting(roles.instance(), action);
        List<String> tenantRolesGranting = granting(roles.tenant(), action);
        // The instance's type, key and tenant in one pass over its properties (the walk then knows its type).
        Object[] targetProps = target == null ? null : reads.typeKeyAndTenant(Walk.id(target));
        String targetTenant = target == null ? null : str(targetProps[2]);
        String tenant = targetTenant != null ? targetTenant : questionTenant != null ? questionTenant : defaultTenant;
        boolean viable = user != null && (questionTenant == null || questionTenant.equals(tenant));

        // The user's assignments, each read when the walk asks about its node (Held), and its tenant
        // role assignments, found in the same pass over its relationships.
        List<Long> tenantRoleEdges = new ArrayList<>();
        Held held = Held.withTenantRoles(reads, viable ? user : null, nowMs, tenantRoleEdges);

        // Tenant scope (fragments/rule/tenantScopeGrant).
        List<String> tenantRolesHeld = new ArrayList<>();
        List<Long> tenantGrantUntils = new ArrayList<>();
        if (viable) {
            for (long edgeId : tenantRoleEdges) {
                Relationship grant = reads.relationshipOf(edgeId);
                Node heldIn = grant.getEndNode();
                if (!heldIn.hasLabel(TENANT) || !Walk.eq(heldIn.getProperty("env", null), env) || !Walk.eq(heldIn.getProperty("key", null), tenant)) continue;
                if (!Walk.tenantScopeGrant(grant, tenantRolesGranting, nowMs)) continue;
                tenantRolesHeld.add((String) grant.getProperty("role"));
                tenantGrantUntils.add(Walk.asLong(grant.getProperty("expires_at", null)));
            }
        }
        boolean byTenantRole = !tenantRolesHeld.isEmpty();

        List<Walk.State> startStates = new ArrayList<>();
        if (!((byTenantRole && !explain) || !viable || target == null)) {
            String at = explain ? Walk.cat(targetProps[0], ":", targetProps[1]) : null;
            for (String role : instanceRolesGranting) {
                startStates.add(new Walk.State(target, role, null, explain ? Walk.cat(at, "#", role) : ""));
            }
        }
        Walk walk = new Walk(reads, rule, nowMs, depth, false, explain, held::anyAt, false);
        if (target != null) walk.knowType(target, targetProps[0]);
        Walk.Reached reached = walk.reachableStates(startStates, explain ? null : held::holds);
        List<Integer> hits = new ArrayList<>();
        for (int i = 0; i < reached.states().size(); i++) {
            if (held.holds(reached.states().get(i).key)) hits.add(i);
        }

        List<Long> expiries = new ArrayList<>();
        if (byTenantRole) {
            expiries.addAll(tenantGrantUntils);
        } else if (!hits.isEmpty()) {
            Walk.State first = reached.states().get(hits.get(0));
            expiries.add(first.until);
            expiries.addAll(held.untilsOf(first.key));
        } else if (rule.anyNoDirectRolesOnObject) {
            for (Walk.Assignment a : held.all()) expiries.add(a.until());
        }
        Long validUntil = null;
        for (Long e : expiries) if (e != null && (validUntil == null || e < validUntil)) validUntil = e;

        Row row = new Row();
        row.idx = idx;
        row.allow = byTenantRole || !hits.isEmpty();
        row.validUntil = validUntil;
        row.depthLimited = !byTenantRole && hits.isEmpty() && reached.depthLimited();
        if (explain) {
            Map<String, Object> explanation = new LinkedHashMap<>();
            explanation.put("user_found", user != null);
            explanation.put("tenant", tenant);
            explanation.put("granting_roles", instanceRolesGranting);
            explanation.put("tenant_role_grant", byTenantRole);
            explanation.put("searched", !startStates.isEmpty());
            explanation.put("states_visited", (long) reached.states().size());
            List<String> paths = new ArrayList<>();
            Object userKey = user == null ? null : user.getProperty("key", null);
            for (String role : tenantRolesHeld) paths.add(Walk.cat("user:", userKey, " -", role, "-> tenant:", tenant));
            for (int i : hits) {
                Walk.State s = reached.states().get(i);
                paths.add(Walk.cat("user:", userKey, " -", roleOfKey(s.key), "-> ", s.trail));
            }
            explanation.put("paths", paths);
            row.explanation = explanation;
        }
        if (Boolean.TRUE.equals(question.get("stored"))) row.stored = stored(env, user, target, nowMs);
        return row;
    }

    /**
     * The stored attributes of the question's user and instance, as cypher/conditions/questionAttributes.cypher
     * reads them: the user's with the tenant roles it holds (fragments/rule/heldTenantRoles: each live
     * tenant role assignment's role in its tenant, and every tenant-level role that role extends).
     */
    private Map<String, Object> stored(String env, Node user, Node target, long nowMs) {
        Map<String, Object> out = new HashMap<>();
        Map<String, Object> u = null;
        if (user != null) {
            u = new HashMap<>();
            u.put("key", user.getProperty("key", null));
            u.put("email", user.getProperty("email", null));
            u.put("attributes_json", user.getProperty("attributes_json", null));
            Set<List<String>> held = new LinkedHashSet<>();
            for (Relationship grant : user.getRelationships(Direction.OUTGOING, Walk.HAS_TENANT_ROLE)) {
                Node tenant = grant.getEndNode();
                if (!tenant.hasLabel(TENANT) || !Walk.grantIsLive(grant, nowMs)) continue;
                Object tenantKey = tenant.getProperty("key", null);
                Object role = grant.getProperty("role", null);
                if (!(tenantKey instanceof String t) || !(role instanceof String r)) continue;
                held.add(List.of(t, r));
                Node roleNode = findOne(tx, RuleTables.ROLE, Map.of("env", env, "key", r));
                if (roleNode != null) {
                    for (Node ancestor : RuleTables.ancestors(roleNode)) {
                        if (ancestor.hasLabel(RuleTables.ROLE) && ancestor.getProperty("key", null) instanceof String k) held.add(List.of(t, k));
                    }
                }
            }
            List<Map<String, Object>> roles = new ArrayList<>();
            for (List<String> h : held) roles.add(Map.of("tenant", h.get(0), "role", h.get(1)));
            u.put("tenant_roles", roles);
        }
        Map<String, Object> i = null;
        if (target != null) {
            i = new HashMap<>();
            i.put("type", target.getProperty("resource", null));
            i.put("key", target.getProperty("key", null));
            i.put("tenant", target.getProperty("tenant", null));
            i.put("attributes_json", target.getProperty("attributes_json", null));
        }
        out.put("user", u);
        out.put("instance", i);
        return out;
    }

    /** `coalesce(environment.revision, 0)` of the environment `env` (unique `id`), null when there is none. */
    static Long revision(Reads reads, String env) {
        if (env == null) return null;
        Node environment = reads.findOne(ENVIRONMENT_ID, env);
        if (environment == null) return null;
        Long revision = Walk.asLong(environment.getProperty("revision", null));
        return revision == null ? 0L : revision;
    }

    /** `split(key, '|')[1]` of the Cypher's state key "<elementId>|<role>": the role up to a `|` in it. */
    static String roleOfKey(Walk.Key key) {
        String role = key.role();
        if (role == null) return null;
        int next = role.indexOf('|');
        return next < 0 ? role : role.substring(0, next);
    }

    static List<String> granting(List<RuleTables.Grant> grants, String action) {
        List<String> out = new ArrayList<>();
        for (RuleTables.Grant g : grants) if (g.gives(action)) out.add(g.role());
        return out;
    }

    /** The properties of the unique constraints users and instances are found by (migrations V0001, V0002). */
    static final Reads.IndexKey USER_KEY = new Reads.IndexKey(USER, "env", "key");
    static final Reads.IndexKey INSTANCE_KEY = new Reads.IndexKey(INSTANCE, "env", "resource", "key");
    static final Reads.IndexKey ENVIRONMENT_ID = new Reads.IndexKey(ENVIRONMENT, "id");

    private static Node user(Reads reads, String env, String key, Map<String, Node> users) {
        if (env == null || key == null) return null;
        if (users.containsKey(key)) return users.get(key);
        Node found = reads.findOne(USER_KEY, env, key);
        users.put(key, found);
        return found;
    }

    static Node findOne(Transaction tx, Label label, Map<String, Object> properties) {
        try (ResourceIterator<Node> it = tx.findNodes(label, properties)) {
            return it.hasNext() ? it.next() : null;
        }
    }

    static String str(Object value) {
        return value instanceof String s ? s : null;
    }

}
