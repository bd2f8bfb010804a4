package graphauthz;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.RelationshipType;
import org.neo4j.graphdb.ResourceIterator;
import org.neo4j.graphdb.Transaction;

/**
 * The environment's rule tables, read once per call in the calling transaction (nothing is kept
 * across calls): the derivations, the role hierarchy and the resource role keys
 * (fragments/derivations), and for each resource type asked about the roles that act on it
 * (fragments/rolesOnType). Read with the core API, the same tables in the same order as the
 * fragments produce them (both sort by key), so both walks visit states in the same order.
 */
final class RuleTables {
    /** A derivation (docs/graph-model.md): `fromRole` on an `onResource` subject gives `role` on a `resource` object over `relation`. */
    record Derivation(String resource, String role, String onResource, String fromRole, String relation, boolean noDirectRolesOnObject) {}

    /** One role with EXTENDS edges: `resource` null for a tenant-level role; `up` its ancestors, `down` its descendants. */
    record Hierarchy(String resource, String role, List<String> up, List<String> down) {}

    /** A role and the actions it gives on one type (null: a role without permissions). */
    record Grant(String role, List<String> actions) {
        boolean gives(String action) {
            return actions != null && action != null && actions.contains(action);
        }
    }

    /** The roles acting on one type: at instance scope (`instance`) and at tenant scope (`tenant`). */
    record RolesOnType(List<Grant> instance, List<Grant> tenant) {}

    final List<Derivation> derivations = new ArrayList<>();
    /** derivations by relation, in the order of `derivations`. */
    final Map<String, List<Derivation>> derivationsByRelation = new HashMap<>();
    final boolean anyNoDirectRolesOnObject;
    /**
     * The types a derivation with a relation carries a role from (`on_resource`: a RELATED edge's
     * start) and to (`resource`: its end). A RELATED edge at a node of any other type carries no role
     * (Walk.derivationStep finds no derivation for it), so the walk does not read such edges there.
     */
    final Set<String> subjectTypes = new HashSet<>();
    final Set<String> objectTypes = new HashSet<>();
    /** roleHierarchy entries by role key, in the order of the fragment's list. */
    final Map<String, List<Hierarchy>> hierarchyByRole = new HashMap<>();
    final Set<String> resourceRoleKeys = new HashSet<>();
    final Map<String, RolesOnType> rolesOnType = new LinkedHashMap<>();

    static final Label DERIVATION = Label.label("Derivation");
    static final Label ROLE = Label.label("Role");
    static final Label RESOURCE_ROLE = Label.label("ResourceRole");
    static final RelationshipType EXTENDS = RelationshipType.withName("EXTENDS");

    /**
     * Reads the tables with the core API, through the indexes on `env` (migration V0013) and on
     * (env, resource), in the order the fragments sort them (by key; derivations by their five
     * fields), so that both walks visit states in the same order.
     */
    static RuleTables read(Transaction tx, String env, Iterable<String> types) {
        List<Map<String, Object>> derivationRows = new ArrayList<>();
        try (ResourceIterator<Node> it = tx.findNodes(DERIVATION, "env", env)) {
            while (it.hasNext()) {
                Node d = it.next();
                Map<String, Object> row = new HashMap<>();
                for (String k : new String[] {"resource", "role", "on_resource", "from_role", "relation"}) row.put(k, d.getProperty(k, null));
                row.put("no_direct_roles_on_object", Boolean.TRUE.equals(d.getProperty("no_direct_roles_on_object", null)));
                derivationRows.add(row);
            }
        }
        derivationRows.sort(Order.byFields("resource", "role", "on_resource", "from_role", "relation"));

        List<Node> tenantRoles = sortedByKey(nodes(tx, ROLE, "env", env));
        List<Node> resourceRoles = nodes(tx, RESOURCE_ROLE, "env", env);
        List<Map<String, Object>> hierarchyRows = new ArrayList<>();
        List<String> resourceRoleKeys = new ArrayList<>();
        for (Node role : tenantRoles) {
            if (role.hasRelationship(EXTENDS)) hierarchyRows.add(hierarchyRow(null, role));
        }
        for (Node role : resourceRoles) {
            Object resource = role.getProperty("resource", null);
            Object key = role.getProperty("key", null);
            if (resource == null || key == null) continue;
            resourceRoleKeys.add(resource + "|" + key);
            if (role.hasRelationship(EXTENDS)) hierarchyRows.add(hierarchyRow(resource, role));
        }
        RuleTables tables = new RuleTables(derivationRows, hierarchyRows, resourceRoleKeys);

        // fragments/rolesOnType, for each type asked about.
        List<Grant> tenantGrants = null;
        for (String type : types) {
            if (type == null || tables.rolesOnType.containsKey(type)) continue;
            if (tenantGrants == null) tenantGrants = tenantGrants(tenantRoles);
            List<Grant> instance = new ArrayList<>();
            Set<String> resourceRoleNames = new HashSet<>();
            for (Node r : sortedByKey(nodes(tx, RESOURCE_ROLE, "env", env, "resource", type))) {
                String key = (String) r.getProperty("key", null);
                instance.add(new Grant(key, strings(r.getProperty("permissions", null))));
                resourceRoleNames.add(key);
            }
            List<Grant> tenant = new ArrayList<>();
            String prefix = type + ":";
            for (Grant g : tenantGrants) {
                List<String> actions = null;
                if (g.actions() != null) {
                    actions = new ArrayList<>();
                    for (String permission : g.actions()) {
                        if (permission != null && permission.startsWith(prefix)) actions.add(permission.substring(prefix.length()));
                    }
                }
                tenant.add(new Grant(g.role(), actions));
            }
            for (Grant g : tenant) if (!resourceRoleNames.contains(g.role())) instance.add(g);
            tables.rolesOnType.put(type, new RolesOnType(instance, tenant));
        }
        return tables;
    }

    /** Each tenant-level role with its permissions and those of every role it extends (fragments/rule/tenantRoleAncestors). */
    private static List<Grant> tenantGrants(List<Node> tenantRoles) {
        List<Grant> out = new ArrayList<>();
        for (Node role : tenantRoles) {
            List<String> own = strings(role.getProperty("permissions", null));
            List<String> permissions = null;
            if (own != null) {
                permissions = new ArrayList<>(own);
                for (Node ancestor : reachable(role, Direction.OUTGOING)) {
                    if (!ancestor.hasLabel(ROLE)) continue;
                    List<String> more = strings(ancestor.getProperty("permissions", null));
                    if (more != null) permissions.addAll(more);
                }
            }
            out.add(new Grant((String) role.getProperty("key", null), permissions));
        }
        return out;
    }

    private static Map<String, Object> hierarchyRow(Object resource, Node role) {
        Map<String, Object> row = new HashMap<>();
        row.put("resource", resource);
        row.put("role", role.getProperty("key", null));
        row.put("up", sortedKeys(reachable(role, Direction.OUTGOING)));
        row.put("down", sortedKeys(reachable(role, Direction.INCOMING)));
        return row;
    }

    /** The roles `role` extends, transitively (fragments/rule/tenantRoleAncestors, any label). */
    static List<Node> ancestors(Node role) {
        return reachable(role, Direction.OUTGOING);
    }

    /** The nodes one or more EXTENDS hops from `start` in `direction` (`start` itself only on a cycle). */
    private static List<Node> reachable(Node start, Direction direction) {
        List<Node> out = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        Deque<Node> todo = new ArrayDeque<>();
        todo.push(start);
        while (!todo.isEmpty()) {
            Node at = todo.pop();
            for (Relationship r : at.getRelationships(direction, EXTENDS)) {
                Node next = r.getOtherNode(at);
                if (seen.add(Walk.id(next))) {
                    out.add(next);
                    todo.push(next);
                }
            }
        }
        return out;
    }

    private static List<String> sortedKeys(List<Node> nodes) {
        List<String> keys = new ArrayList<>();
        for (Node n : nodes) {
            Object key = n.getProperty("key", null);
            if (key instanceof String s && !keys.contains(s)) keys.add(s);
        }
        keys.sort(Order::compareText);
        return keys;
    }

    private static List<Node> sortedByKey(List<Node> nodes) {
        List<Node> out = new ArrayList<>();
        for (Node n : nodes) if (n.getProperty("key", null) != null) out.add(n);
        out.sort((a, b) -> Order.compareText((String) a.getProperty("key"), (String) b.getProperty("key")));
        return out;
    }

    /** The nodes of the label with this property value (through its index). */
    static List<Node> nodes(Transaction tx, Label label, String k1, Object v1) {
        List<Node> out = new ArrayList<>();
        try (ResourceIterator<Node> it = tx.findNodes(label, k1, v1)) {
            while (it.hasNext()) out.add(it.next());
        }
        return out;
    }

    /** The nodes of the label with these two property values (through their index). */
    static List<Node> nodes(Transaction tx, Label label, String k1, Object v1, String k2, Object v2) {
        List<Node> out = new ArrayList<>();
        try (ResourceIterator<Node> it = tx.findNodes(label, k1, v1, k2, v2)) {
            while (it.hasNext()) out.add(it.next());
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<Grant> grants(Object value) {
        List<Grant> out = new ArrayList<>();
        if (value == null) return out;
        for (Map<String, Object> g : (List<Map<String, Object>>) value) {
            out.add(new Grant((String) g.get("role"), strings(g.get("actions"))));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object value) {
        if (value == null) return null;
        if (value instanceof List<?> list) return (List<String>) list;
        if (value instanceof String[] array) return List.of(array);
        return null;
    }

    @SuppressWarnings("unchecked")
    private RuleTables(List<Map<String, Object>> derivationRows, List<Map<String, Object>> hierarchyRows, List<String> resourceRoleKeyList) {
        boolean anyNoDirect = false;
        for (Map<String, Object> d : derivationRows) {
            Derivation derivation = new Derivation((String) d.get("resource"), (String) d.get("role"), (String) d.get("on_resource"),
                    (String) d.get("from_role"), (String) d.get("relation"), Boolean.TRUE.equals(d.get("no_direct_roles_on_object")));
            derivations.add(derivation);
            if (derivation.relation() != null) {
                derivationsByRelation.computeIfAbsent(derivation.relation(), k -> new ArrayList<>()).add(derivation);
                if (derivation.onResource() != null) subjectTypes.add(derivation.onResource());
                if (derivation.resource() != null) objectTypes.add(derivation.resource());
            }
            anyNoDirect |= derivation.noDirectRolesOnObject();
        }
        anyNoDirectRolesOnObject = anyNoDirect;
        for (Map<String, Object> h : hierarchyRows) {
            Hierarchy entry = new Hierarchy((String) h.get("resource"), (String) h.get("role"),
                    nonNull(strings(h.get("up"))), nonNull(strings(h.get("down"))));
            if (entry.role() != null) hierarchyByRole.computeIfAbsent(entry.role(), k -> new ArrayList<>()).add(entry);
        }
        resourceRoleKeys.addAll(resourceRoleKeyList);
    }

    private static List<String> nonNull(List<String> list) {
        return list == null ? List.of() : list;
    }

    RolesOnType rolesOn(String type) {
        RolesOnType r = rolesOnType.get(type);
        return r != null ? r : new RolesOnType(List.of(), List.of());
    }
}
