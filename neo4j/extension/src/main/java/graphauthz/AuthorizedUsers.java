package graphauthz;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.Transaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

/**
 * graphauthz.authorizedUsers: the row of cypher/decisions/authorizedUsers.cypher (who may do an
 * action on an instance, and through which assignment). Statement: cypher/walk/authorizedUsers.cypher.
 */
public final class AuthorizedUsers {
    @Context
    public Transaction tx;

    /** The `// @row` of cypher/decisions/authorizedUsers.cypher. */
    public static final class Row {
        public String tenant;
        public List<Map<String, Object>> assignments;
    }

    private record Candidate(String user, Object tenant, String resource, String role, Walk.Key state) {}

    /** A user and a state (the Cypher's "<user>|<elementId>|<role>"). */
    private record Confirmed(String user, Walk.Key state) {}

    @Procedure(name = "graphauthz.authorizedUsers", mode = Mode.READ)
    @Description("The users who may do an action on an instance (or type in a tenant), as cypher/decisions/authorizedUsers.cypher answers it.")
    public Stream<Row> authorizedUsers(@Name("env") String env, @Name("action") String action, @Name("type") String type,
            @Name("key") String key, @Name("tenant") String questionTenant, @Name("depth") long depth,
            @Name("defaultTenant") String defaultTenant, @Name("nowMs") long nowMs) {
        return Vanished.retry(() -> {
            try (Reads reads = new Reads(tx)) {
                return authorizedUsersOnce(reads, env, action, type, key, questionTenant, depth, defaultTenant, nowMs);
            }
        });
    }

    private Stream<Row> authorizedUsersOnce(Reads reads, String env, String action, String type, String key, String questionTenant, long depth, String defaultTenant, long nowMs) {
        RuleTables rule = RuleTables.read(tx, env, type == null ? List.of() : List.of(type));
        Node target = reads.findOne(Allowed.INSTANCE_KEY, env, type, key);
        String targetTenant = target == null ? null : Allowed.str(target.getProperty("tenant", null));
        String tenant = targetTenant != null ? targetTenant : questionTenant != null ? questionTenant : defaultTenant;
        RuleTables.RolesOnType roles = rule.rolesOn(type);
        List<String> tenantRolesGranting = Allowed.granting(roles.tenant(), action);
        List<Walk.State> start = new ArrayList<>();
        if (target != null && (questionTenant == null || questionTenant.equals(tenant))) {
            for (String role : Allowed.granting(roles.instance(), action)) start.add(new Walk.State(target, role, null, ""));
        }
        Walk.Reached reached = new Walk(reads, rule, nowMs, depth, false, false, Set.of()).reachableStates(start, Set.of());

        // The users holding a reached state's role on its node (live HAS_ROLE edges).
        List<Candidate> candidates = new ArrayList<>();
        for (Walk.State state : reached.states()) {
            Node node = state.node;
            for (Relationship grant : node.getRelationships(Direction.INCOMING, Walk.HAS_ROLE)) {
                if (!Walk.eq(grant.getProperty("role", null), state.role) || !Walk.grantIsLive(grant, nowMs)) continue;
                Node user = grant.getStartNode();
                if (!user.hasLabel(Allowed.USER)) continue;
                candidates.add(new Candidate(Allowed.str(user.getProperty("key", null)), node.getProperty("tenant", null),
                        Walk.cat(node.getProperty("resource", null), ":", node.getProperty("key", null)), state.role, state.key));
            }
        }
        // A `no_direct_roles_on_object` derivation depends on the user: each one found is walked again with their own direct roles.
        boolean conditional = false;
        Set<Confirmed> confirmed = new HashSet<>();
        if (rule.anyNoDirectRolesOnObject) {
            Set<String> users = new LinkedHashSet<>();
            for (Candidate c : candidates) users.add(c.user());
            for (String userKey : users) {
                Node holder = userKey == null ? null : reads.findOne(Allowed.USER_KEY, env, userKey);
                if (holder == null) continue;
                conditional = true;
                List<Walk.Assignment> assignments = Walk.directAssignments(reads, holder, nowMs);
                Set<Walk.Key> held = new HashSet<>();
                Set<Long> directNodes = new HashSet<>();
                for (Walk.Assignment a : assignments) {
                    held.add(a.stateKey());
                    directNodes.add(Walk.id(a.node()));
                }
                Walk.Reached again = new Walk(reads, rule, nowMs, depth, false, false, directNodes).reachableStates(start, held);
                for (Walk.State s : again.states()) if (held.contains(s.key)) confirmed.add(new Confirmed(userKey, s.key));
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        // Tenant scope: the users whose tenant role in the tenant gives the action.
        Node tenantNode = tenant == null || env == null ? null : Allowed.findOne(tx, Allowed.TENANT, Map.of("env", env, "key", tenant));
        if (tenantNode != null) {
            for (Relationship grant : tenantNode.getRelationships(Direction.INCOMING, Walk.HAS_TENANT_ROLE)) {
                Node user = grant.getStartNode();
                if (!user.hasLabel(Allowed.USER) || !Walk.tenantScopeGrant(grant, tenantRolesGranting, nowMs)) continue;
                out.add(assignment(user.getProperty("key", null), tenant, "__tenant:" + tenant, grant.getProperty("role", null)));
            }
        }
        for (Candidate c : candidates) {
            if (!conditional || confirmed.contains(new Confirmed(c.user(), c.state()))) out.add(assignment(c.user(), c.tenant(), c.resource(), c.role()));
        }
        Row row = new Row();
        row.tenant = tenant;
        row.assignments = out;
        return Stream.of(row);
    }

    private static Map<String, Object> assignment(Object user, Object tenant, Object resource, Object role) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("user", user);
        m.put("tenant", tenant);
        m.put("resource", resource);
        m.put("role", role);
        return m;
    }
}
