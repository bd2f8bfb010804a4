package graphauthz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Result;
import org.neo4j.graphdb.Transaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

/**
 * graphauthz.userPermissions: the row of cypher/decisions/userPermissions.cypher (everything a
 * user may do): the forward walk from the user's assignments, each reached role giving its actions
 * on its node's type; the user's tenant roles are read as that statement reads them (TENANTS, the
 * same text). No row for an unknown user. Statement: cypher/walk/userPermissions.cypher.
 * `instances` lists each instance once, in the order the walk first reached it (the Cypher
 * statement's order is that of its aggregation): the service keys them by instance.
 */
public final class UserPermissions {
    @Context
    public Transaction tx;

    /** The `// @row` of cypher/decisions/userPermissions.cypher. */
    public static final class Row {
        public List<Map<String, Object>> instances;
        public List<Map<String, Object>> tenants;
    }

    /** The tenant part of cypher/decisions/userPermissions.cypher, as it is there. */
    private static final String TENANTS = "MATCH (user) WHERE elementId(user) = $userId\n"
            + "CALL (user) {\n"
            + "  OPTIONAL MATCH (user)-[grant:HAS_TENANT_ROLE]->(tenant:Tenant)\n"
            + "  WHERE ($tenants IS NULL OR tenant.key IN $tenants) AND\n"
            + Fragments.text("rule/grantIsLive") + "\n"
            + "  OPTIONAL MATCH (tenantRole:Role {env: $env, key: grant.role})\n"
            + "  WITH tenant, grant, reduce(permissions = coalesce(tenantRole.permissions, []), ancestor IN\n"
            + Fragments.text("rule/tenantRoleAncestors") + "\n"
            + "         | permissions + ancestor.permissions) AS given\n"
            + "  WITH tenant, collect(grant.role) AS roles,\n"
            + "       reduce(permissions = [], given IN collect(given) | permissions + [p IN given WHERE NOT p IN permissions]) AS permissions\n"
            + "  WHERE tenant IS NOT NULL\n"
            + "  RETURN collect({key: '__tenant:' + tenant.key, tenant: tenant.key, roles: roles,\n"
            + "                  permissions: [p IN permissions WHERE $types IS NULL OR split(p, ':')[0] IN $types]}) AS tenants\n"
            + "}\n"
            + "RETURN tenants";

    @Procedure(name = "graphauthz.userPermissions", mode = Mode.READ)
    @Description("Everything a user may do, as cypher/decisions/userPermissions.cypher answers it.")
    @SuppressWarnings("unchecked")
    public Stream<Row> userPermissions(@Name("env") String env, @Name("user") String userKey, @Name("tenants") List<String> tenants,
            @Name("types") List<String> types, @Name("depth") long depth, @Name("nowMs") long nowMs) {
        return Vanished.retry(() -> {
            try (Reads reads = new Reads(tx)) {
                return userPermissionsOnce(reads, env, userKey, tenants, types, depth, nowMs);
            }
        });
    }

    private Stream<Row> userPermissionsOnce(Reads reads, String env, String userKey, List<String> tenants, List<String> types, long depth, long nowMs) {
        Node user = env == null || userKey == null ? null : reads.findOne(Allowed.USER_KEY, env, userKey);
        if (user == null) return Stream.empty();
        RuleTables rule = RuleTables.read(tx, env, List.of());
        List<Walk.Assignment> assignments = Walk.directAssignments(reads, user, nowMs);
        Set<Long> directNodes = new HashSet<>();
        List<Walk.State> start = new ArrayList<>(assignments.size());
        for (Walk.Assignment a : assignments) {
            directNodes.add(Walk.id(a.node()));
            start.add(new Walk.State(a.node(), a.role(), a.until(), ""));
        }
        Walk.Reached reached = new Walk(reads, rule, nowMs, depth, true, false, directNodes).reachableStates(start, Set.of());

        // The reached states kept, grouped by instance (first reached first), and their types.
        Map<String, List<Walk.State>> byNode = new LinkedHashMap<>();
        Set<String> reachedTypes = new LinkedHashSet<>();
        for (Walk.State state : reached.states()) {
            Object tenant = state.node.getProperty("tenant", null);
            Object type = state.node.getProperty("resource", null);
            if (tenants != null && (tenant == null || !tenants.contains(tenant))) continue;
            if (types != null && (type == null || !types.contains(type))) continue;
            if (!(type instanceof String)) continue;
            reachedTypes.add((String) type);
            byNode.computeIfAbsent(state.node.getElementId(), k -> new ArrayList<>()).add(state);
        }
        RuleTables roles = reachedTypes.isEmpty() ? rule : RuleTables.read(tx, env, reachedTypes);
        List<Map<String, Object>> instances = new ArrayList<>();
        for (List<Walk.State> states : byNode.values()) {
            Node node = states.get(0).node;
            String type = (String) node.getProperty("resource");
            Map<String, List<String>> actionsOf = new HashMap<>();
            for (RuleTables.Grant g : roles.rolesOn(type).instance()) actionsOf.putIfAbsent(g.role(), g.actions());
            List<String> roleKeys = new ArrayList<>();
            List<String> permissions = new ArrayList<>();
            for (Walk.State s : states) {
                roleKeys.add(s.role);
                List<String> actions = actionsOf.get(s.role);
                if (actions == null) continue;
                for (String action : actions) {
                    String p = type + ":" + action;
                    if (!permissions.contains(p)) permissions.add(p);
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("key", Walk.cat(type, ":", node.getProperty("key", null)));
            m.put("tenant", node.getProperty("tenant", null));
            m.put("type", type);
            m.put("resource_key", node.getProperty("key", null));
            m.put("roles", roleKeys);
            m.put("permissions", permissions);
            instances.add(m);
        }
        Row row = new Row();
        row.instances = instances;
        Map<String, Object> params = new HashMap<>();
        params.put("userId", user.getElementId());
        params.put("env", env);
        params.put("tenants", tenants);
        params.put("types", types);
        params.put("nowMs", nowMs);
        try (Result result = tx.execute(TENANTS, params)) {
            row.tenants = result.hasNext() ? (List<Map<String, Object>>) result.next().get("tenants") : List.of();
        }
        return Stream.of(row);
    }
}
