package graphauthz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 * graphauthz.effectiveRoles: the row of cypher/decisions/effectiveRoles.cypher (each role a user holds
 * on each instance, with the path that grants it): the forward walk with trails; the user's tenant
 * roles (and those they extend) are read with the statement's own text (TENANTS). No row for an
 * unknown user. Statement: cypher/walk/effectiveRoles.cypher.
 */
public final class EffectiveRoles {
    @Context
    public Transaction tx;

    /** The `// @row` of cypher/decisions/effectiveRoles.cypher. */
    public static final class Row {
        public List<Map<String, Object>> roles;
    }

    private static final String TENANTS = "MATCH (user) WHERE elementId(user) = $userId\n"
            + "WITH *, [(user)-[grant:HAS_TENANT_ROLE]->(tenant:Tenant) WHERE ($tenant IS NULL OR tenant.key = $tenant) AND\n"
            + Fragments.text("rule/grantIsLive") + "\n"
            + "          | {tenant: tenant.key, role: grant.role, path: 'user:' + user.key + ' -' + grant.role + '-> tenant:' + tenant.key}] AS tenantRolesHeld\n"
            + "RETURN [held IN tenantRolesHeld | {resource: '__tenant:' + held.tenant, tenant: held.tenant, role: held.role, path: held.path}]\n"
            + "     + reduce(inherited = [], held IN tenantRolesHeld | inherited + COLLECT {\n"
            + "          MATCH (tenantRole:Role {env: $env, key: held.role})\n"
            + "          UNWIND\n"
            + Fragments.text("rule/tenantRoleAncestors") + "\n"
            + "            AS ancestor\n"
            + "          RETURN {resource: '__tenant:' + held.tenant, tenant: held.tenant, role: ancestor.key,\n"
            + "                  path: held.path + '#' + held.role + ' -extends-> tenant:' + held.tenant + '#' + ancestor.key} AS entry })\n"
            + "       AS roles";

    @Procedure(name = "graphauthz.effectiveRoles", mode = Mode.READ)
    @Description("Each role a user holds on each instance with the path that grants it, as cypher/decisions/effectiveRoles.cypher answers it.")
    @SuppressWarnings("unchecked")
    public Stream<Row> effectiveRoles(@Name("env") String env, @Name("user") String userKey, @Name("tenant") String tenant,
            @Name("depth") long depth, @Name("nowMs") long nowMs) {
        return Vanished.retry(() -> {
            try (Reads reads = new Reads(tx)) {
                return effectiveRolesOnce(reads, env, userKey, tenant, depth, nowMs);
            }
        });
    }

    private Stream<Row> effectiveRolesOnce(Reads reads, String env, String userKey, String tenant, long depth, long nowMs) {
        Node user = env == null || userKey == null ? null : reads.findOne(Allowed.USER_KEY, env, userKey);
        if (user == null) return Stream.empty();
        RuleTables rule = RuleTables.read(tx, env, List.of());
        Object key = user.getProperty("key", null);
        List<Walk.Assignment> assignments = Walk.directAssignments(reads, user, nowMs);
        Set<Long> directNodes = new HashSet<>();
        List<Walk.State> start = new ArrayList<>(assignments.size());
        for (Walk.Assignment a : assignments) {
            directNodes.add(Walk.id(a.node()));
            String trail = Walk.cat("user:", key, " -", a.role(), "-> ", a.node().getProperty("resource", null), ":", a.node().getProperty("key", null));
            start.add(new Walk.State(a.node(), a.role(), a.until(), trail));
        }
        Walk.Reached reached = new Walk(reads, rule, nowMs, depth, true, true, directNodes).reachableStates(start, Set.of());
        List<Map<String, Object>> roles = new ArrayList<>();
        for (Walk.State state : reached.states()) {
            Object nodeTenant = state.node.getProperty("tenant", null);
            if (tenant != null && !Walk.eq(nodeTenant, tenant)) continue;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("resource", Walk.cat(state.node.getProperty("resource", null), ":", state.node.getProperty("key", null)));
            m.put("tenant", nodeTenant);
            m.put("role", state.role);
            String path = state.trail == null || state.role == null ? null
                    : state.trail.endsWith("#" + state.role) ? state.trail : state.trail + "#" + state.role;
            m.put("path", path);
            roles.add(m);
        }
        Map<String, Object> params = new HashMap<>();
        params.put("userId", user.getElementId());
        params.put("env", env);
        params.put("tenant", tenant);
        params.put("nowMs", nowMs);
        try (Result result = tx.execute(TENANTS, params)) {
            if (result.hasNext()) roles.addAll((List<Map<String, Object>>) result.next().get("roles"));
        }
        Row row = new Row();
        row.roles = roles;
        return Stream.of(row);
    }
}
