package graphauthz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.neo4j.graphdb.Result;
import org.neo4j.graphdb.Transaction;

/**
 * The environment's rule tables, read once per call in the calling transaction (nothing is kept
 * across calls): the derivations, the role hierarchy and the resource role keys
 * (fragments/derivations), and for each resource type asked about the roles that act on it
 * (fragments/rolesOnType). They are read with the fragments' own text (Fragments), so both walks
 * see the same tables in the same order.
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
    /** roleHierarchy entries by role key, in the order of the fragment's list. */
    final Map<String, List<Hierarchy>> hierarchyByRole = new HashMap<>();
    final Set<String> resourceRoleKeys = new HashSet<>();
    final Map<String, RolesOnType> rolesOnType = new LinkedHashMap<>();

    private static final String TYPES_PARAM = "__graphauthzTypes";

    private static String query() {
        return Fragments.text("derivations") + "\n"
                + "UNWIND CASE WHEN size($" + TYPES_PARAM + ") = 0 THEN [null] ELSE $" + TYPES_PARAM + " END AS resourceType\n"
                + Fragments.text("rolesOnType") + "\n"
                + "RETURN derivations, roleHierarchy, resourceRoleKeys, resourceType, rolesOnType, tenantRolesOnType";
    }

    private static volatile String QUERY;

    @SuppressWarnings("unchecked")
    static RuleTables read(Transaction tx, String env, Iterable<String> types) {
        String q = QUERY;
        if (q == null) QUERY = q = query();
        List<String> typeList = new ArrayList<>();
        for (String t : types) if (t != null && !typeList.contains(t)) typeList.add(t);
        Map<String, Object> params = new HashMap<>();
        params.put("env", env);
        params.put(TYPES_PARAM, typeList);
        RuleTables tables = null;
        try (Result result = tx.execute(q, params)) {
            while (result.hasNext()) {
                Map<String, Object> row = result.next();
                if (tables == null) {
                    tables = new RuleTables((List<Map<String, Object>>) row.get("derivations"),
                            (List<Map<String, Object>>) row.get("roleHierarchy"), (List<String>) row.get("resourceRoleKeys"));
                }
                String type = (String) row.get("resourceType");
                if (type != null) {
                    tables.rolesOnType.put(type, new RolesOnType(grants(row.get("rolesOnType")), grants(row.get("tenantRolesOnType"))));
                }
            }
        }
        if (tables == null) tables = new RuleTables(List.of(), List.of(), List.of());
        return tables;
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
