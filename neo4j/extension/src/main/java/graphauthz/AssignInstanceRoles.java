package graphauthz;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.ResourceIterator;
import org.neo4j.graphdb.Transaction;
import org.neo4j.internal.kernel.api.NodeCursor;
import org.neo4j.internal.kernel.api.PropertyCursor;
import org.neo4j.internal.kernel.api.Read;
import org.neo4j.internal.kernel.api.RelationshipTraversalCursor;
import org.neo4j.internal.kernel.api.TokenWrite;
import org.neo4j.internal.kernel.api.Write;
import org.neo4j.graphdb.Direction;
import org.neo4j.kernel.api.KernelTransaction;
import org.neo4j.kernel.impl.coreapi.InternalTransaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;
import org.neo4j.storageengine.api.PropertySelection;
import org.neo4j.storageengine.api.RelationshipSelection;
import org.neo4j.values.storable.Value;
import org.neo4j.values.storable.Values;

/**
 * graphauthz.assignInstanceRoles: what cypher/assignments/assignInstanceRoles.cypher writes and
 * answers (same parameters, same row, same edges and properties), through the kernel's API: each
 * user and instance found once by its unique index, an item's ends locked (in id order, as Cypher's
 * MERGE locks them) before its existing edge is looked for from the end with fewer HAS_ROLE edges,
 * then the edge created, or an expired one renewed (fragments/renewExpiredGrant). Statement:
 * cypher/assignments/assignInstanceRolesExt.cypher; docs/walk-extension.md ("Writes").
 */
public final class AssignInstanceRoles {
    static final Label ROLE = Label.label("Role");
    static final Label RESOURCE_ROLE = Label.label("ResourceRole");

    @Context
    public Transaction tx;

    /** The `// @row` of cypher/assignments/assignInstanceRoles.cypher, and the count of edges created. */
    public static final class Row {
        public long written;
        public long renewed;
        public long edgesCreated;
        public String id;
        public String created_at;
        public String tenant;
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
        try (ResourceIterator<Node> it = tx.findNodes(ROLE, "env", env)) {
            while (it.hasNext()) {
                Object key = it.next().getProperty("key", null);
                if (key instanceof String s) tenantRoles.add(s);
            }
        }
        Set<String> resourceRoles = new HashSet<>();
        for (String resource : resourceKeys) {
            try (ResourceIterator<Node> it = tx.findNodes(RESOURCE_ROLE, "env", env, "resource", resource)) {
                while (it.hasNext()) {
                    Object key = it.next().getProperty("key", null);
                    if (key instanceof String s) resourceRoles.add(resource + ':' + s);
                }
            }
        }
        Row row = new Row();
        row.members = new ArrayList<>();
        try (Reads reads = new Reads(tx); Edges edges = new Edges(ktx)) {
            long[] userIds = new long[users.size()];
            for (int u = 0; u < users.size(); u++) {
                Node found = reads.findOne(Allowed.USER_KEY, env, users.get(u));
                userIds[u] = found == null ? -1 : found.getId();
            }
            // The (user, tenant) pairs of the written items, in the order first written (user by its index in `users`).
            Set<Pair> pairs = new LinkedHashSet<>();
            String lastInstanceRef = null;
            long instanceId = -1;
            String instanceTenant = null;
            for (int k = 0; k < instances.size(); k++) {
                int userIndex = (int) number(userOf.get(k));
                long user = userIds[userIndex];
                if (user < 0) continue;
                String resource = resources.get(k);
                String instance = instances.get(k);
                String ref = resource + '\u0000' + instance;
                if (!ref.equals(lastInstanceRef)) {
                    lastInstanceRef = ref;
                    Node i = reads.findOne(Allowed.INSTANCE_KEY, env, resource, instance);
                    instanceId = i == null ? -1 : i.getId();
                    instanceTenant = i == null ? null : (String) i.getProperty("tenant", null);
                }
                if (instanceId < 0) continue;
                String tenant = tenants.get(k);
                if (tenant != null && !tenant.equals(instanceTenant)) continue;
                String role = roles.get(k);
                if (role == null || !(resourceRoles.contains(resource + ':' + role) || tenantRoles.contains(role))) continue;
                Object expiry = expires.get(k);
                Long expiresAt = expiry == null ? null : number(expiry);
                Edges.Merged merged = edges.merge(user, instanceId, role, instanceTenant, expiresAt, nowIso, nowMs);
                row.written++;
                if (merged.created) row.edgesCreated++;
                if (merged.renewed) row.renewed++;
                if (row.written == 1) {
                    row.id = merged.id;
                    row.created_at = merged.createdAt;
                    row.tenant = instanceTenant;
                }
                pairs.add(new Pair(userIndex, instanceTenant));
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
            if (Vanished.vanished(e)) throw new Deleted(e);
            if (e instanceof RuntimeException r) throw r;
            throw new IllegalStateException("assignInstanceRoles: " + e.getMessage(), e);
        }
        return Stream.of(row);
    }

    /**
     * A record of the batch deleted under it: reported with Neo4j's transient status
     * `Neo.TransientError.Transaction.Outdated` (what Cypher's MERGE on a deleted node would report is
     * a client error), which the service's write transaction sends again: the second attempt no
     * longer finds the record and explains the item (404), as a batch naming a missing user does.
     */
    static final class Deleted extends RuntimeException implements org.neo4j.kernel.api.exceptions.Status.HasStatus {
        Deleted(Throwable cause) {
            super("A user or instance of this batch was deleted by a concurrent commit; write the batch again", cause);
        }

        @Override
        public org.neo4j.kernel.api.exceptions.Status status() {
            return org.neo4j.kernel.api.exceptions.Status.Transaction.Outdated;
        }
    }

    /** A user (its index in the call's `users`) and a tenant key (null: an instance without one). */
    private record Pair(int user, String tenant) {}

    private static long number(Object v) {
        if (v instanceof Number n) return n.longValue();
        throw new IllegalArgumentException("expected a number, got " + v);
    }

    /** The kernel's cursors and tokens for one call's edges. */
    static final class Edges implements AutoCloseable {
        private final KernelTransaction ktx;
        private final Read read;
        private final Write write;
        private final NodeCursor node;
        private final NodeCursor other;
        private final RelationshipTraversalCursor rels;
        private final PropertyCursor props;
        private final int hasRole;
        private final int inTenant;
        private final int role;
        private final int id;
        private final int tenant;
        private final int createdAt;
        private final int expiresAt;
        private final int key;
        private final int tenantLabel;
        private final PropertySelection roleOnly;
        private final PropertySelection renewal;

        Edges(KernelTransaction ktx) throws KernelException {
            this.ktx = ktx;
            read = ktx.dataRead();
            write = ktx.dataWrite();
            TokenWrite tokens = ktx.tokenWrite();
            hasRole = tokens.relationshipTypeGetOrCreateForName("HAS_ROLE");
            inTenant = tokens.relationshipTypeGetOrCreateForName("IN_TENANT");
            role = tokens.propertyKeyGetOrCreateForName("role");
            id = tokens.propertyKeyGetOrCreateForName("id");
            tenant = tokens.propertyKeyGetOrCreateForName("tenant");
            createdAt = tokens.propertyKeyGetOrCreateForName("created_at");
            expiresAt = tokens.propertyKeyGetOrCreateForName("expires_at");
            key = tokens.propertyKeyGetOrCreateForName("key");
            tenantLabel = tokens.labelGetOrCreateForName("Tenant");
            roleOnly = PropertySelection.selection(role);
            renewal = PropertySelection.selection(id, createdAt, expiresAt);
            node = ktx.cursors().allocateNodeCursor(ktx.cursorContext(), ktx.memoryTracker());
            other = ktx.cursors().allocateNodeCursor(ktx.cursorContext(), ktx.memoryTracker());
            rels = ktx.cursors().allocateRelationshipTraversalCursor(ktx.cursorContext(), ktx.memoryTracker());
            props = ktx.cursors().allocatePropertyCursor(ktx.cursorContext(), ktx.memoryTracker());
        }

        record Merged(boolean created, boolean renewed, String id, String createdAt) {}

        /** MERGE (u)-[r:HAS_ROLE {role}]->(i) ON CREATE SET ..., with the renewal of an expired edge. */
        Merged merge(long user, long instance, String roleKey, String instanceTenant, Long expiry, String nowIso, long nowMs)
                throws KernelException {
            // Both ends locked in id order, as Cypher's MERGE locks them before it writes, so that a
            // concurrent batch cannot create the same edge between this look and the write.
            ktx.locks().acquireExclusiveNodeLock(Math.min(user, instance), Math.max(user, instance));
            long edge = find(user, instance, roleKey);
            if (edge < 0) {
                long r = write.relationshipCreate(user, hasRole, instance);
                String newId = UUID.randomUUID().toString();
                write.relationshipSetProperty(r, role, Values.stringValue(roleKey));
                write.relationshipSetProperty(r, id, Values.stringValue(newId));
                if (instanceTenant != null) write.relationshipSetProperty(r, tenant, Values.stringValue(instanceTenant));
                write.relationshipSetProperty(r, createdAt, Values.stringValue(nowIso));
                if (expiry != null) write.relationshipSetProperty(r, expiresAt, Values.longValue(expiry));
                return new Merged(true, false, newId, nowIso);
            }
            // ON MATCH: an expired edge is made again as new; one without an id gets one.
            String oldId = null;
            String oldCreated = null;
            Long oldExpiry = null;
            read.singleRelationship(edge, scan());
            if (scan.next()) {
                scan.properties(props, renewal);
                while (props.next()) {
                    int k = props.propertyKey();
                    Object v = props.propertyValue().asObjectCopy();
                    if (k == id && v instanceof String s) oldId = s;
                    else if (k == createdAt && v instanceof String s) oldCreated = s;
                    else if (k == expiresAt && v instanceof Number n) oldExpiry = n.longValue();
                }
            }
            boolean expired = oldExpiry != null && oldExpiry <= nowMs;
            if (expired) {
                String newId = UUID.randomUUID().toString();
                write.relationshipSetProperty(edge, id, Values.stringValue(newId));
                write.relationshipSetProperty(edge, createdAt, Values.stringValue(nowIso));
                if (expiry != null) write.relationshipSetProperty(edge, expiresAt, Values.longValue(expiry));
                else write.relationshipRemoveProperty(edge, expiresAt);
                return new Merged(false, true, newId, nowIso);
            }
            if (oldId == null) {
                oldId = UUID.randomUUID().toString();
                write.relationshipSetProperty(edge, id, Values.stringValue(oldId));
            }
            return new Merged(false, false, oldId, oldCreated);
        }

        private org.neo4j.internal.kernel.api.RelationshipScanCursor scan;

        private org.neo4j.internal.kernel.api.RelationshipScanCursor scan() {
            if (scan == null) scan = ktx.cursors().allocateRelationshipScanCursor(ktx.cursorContext(), ktx.memoryTracker());
            return scan;
        }

        /** The user's HAS_ROLE edge of this role to the instance, from the end with fewer of them; -1: none. */
        private long find(long user, long instance, String roleKey) {
            RelationshipSelection out = RelationshipSelection.selection(hasRole, Direction.OUTGOING);
            RelationshipSelection in = RelationshipSelection.selection(hasRole, Direction.INCOMING);
            // Either end deleted since it was found (its lock was waited for): the batch is written again.
            read.singleNode(user, node);
            if (!node.next()) throw new org.neo4j.graphdb.NotFoundException("Node " + user + " not found");
            read.singleNode(instance, other);
            if (!other.next()) throw new org.neo4j.graphdb.NotFoundException("Node " + instance + " not found");
            // A node with few edges (not dense) is read whole in one pass; a dense one knows its degree
            // at once. So: the end that is not dense, else the one with fewer HAS_ROLE edges.
            boolean userDense = node.supportsFastDegreeLookup();
            boolean instanceDense = other.supportsFastDegreeLookup();
            boolean fromUser = userDense && instanceDense ? node.degree(out) <= other.degree(in) : !userDense;
            NodeCursor from = fromUser ? node : other;
            long target = fromUser ? instance : user;
            from.relationships(rels, fromUser ? out : in);
            while (rels.next()) {
                if (rels.otherNodeReference() != target) continue;
                rels.properties(props, roleOnly);
                while (props.next()) {
                    Value v = props.propertyValue();
                    if (props.propertyKey() == role && v.equals(Values.stringValue(roleKey))) return rels.relationshipReference();
                }
            }
            return -1;
        }

        /** Whether the user has an IN_TENANT edge to a Tenant whose key is tenantKey. */
        boolean inTenant(long user, String tenantKey) {
            read.singleNode(user, node);
            if (!node.next()) return false;
            node.relationships(rels, RelationshipSelection.selection(inTenant, Direction.OUTGOING));
            while (rels.next()) {
                read.singleNode(rels.otherNodeReference(), other);
                if (!other.next() || !other.hasLabel(tenantLabel)) continue;
                if (tenantKey != null && tenantKey.equals(property(other, key))) return true;
            }
            return false;
        }

        private Object property(NodeCursor n, int k) {
            n.properties(props, PropertySelection.selection(k));
            while (props.next()) if (props.propertyKey() == k) return props.propertyValue().asObjectCopy();
            return null;
        }

        @Override
        public void close() {
            if (scan != null) scan.close();
            props.close();
            rels.close();
            other.close();
            node.close();
        }
    }
}
