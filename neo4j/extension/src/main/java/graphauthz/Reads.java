package graphauthz;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.NotFoundException;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.ResourceIterator;
import org.neo4j.graphdb.Transaction;
import org.neo4j.internal.kernel.api.IndexQueryConstraints;
import org.neo4j.internal.kernel.api.IndexReadSession;
import org.neo4j.internal.kernel.api.InternalIndexState;
import org.neo4j.internal.kernel.api.NodeCursor;
import org.neo4j.internal.kernel.api.NodeValueIndexCursor;
import org.neo4j.internal.kernel.api.PropertyIndexQuery;
import org.neo4j.internal.kernel.api.PropertyCursor;
import org.neo4j.internal.kernel.api.Read;
import org.neo4j.internal.kernel.api.RelationshipScanCursor;
import org.neo4j.internal.kernel.api.RelationshipTraversalCursor;
import org.neo4j.internal.kernel.api.SchemaRead;
import org.neo4j.internal.kernel.api.TokenRead;
import org.neo4j.internal.schema.IndexDescriptor;
import org.neo4j.internal.schema.IndexType;
import org.neo4j.internal.schema.SchemaDescriptors;
import org.neo4j.kernel.api.KernelTransaction;
import org.neo4j.kernel.impl.coreapi.InternalTransaction;
import org.neo4j.storageengine.api.PropertySelection;
import org.neo4j.storageengine.api.RelationshipSelection;
import org.neo4j.token.api.TokenConstants;
import org.neo4j.values.storable.Value;

/**
 * The walk's hot reads (a node's type, key and tenant; the edges at a node with their properties)
 * through the kernel's cursors, in the calling transaction (what it wrote included, as the core API
 * reads it). The core API positions a cursor of its own for every call, resolves each property name
 * to its token, and builds a map of the values; a list-objects call reads hundreds of nodes and
 * edges, and those steps were about a third of its reads (docs/walk-extension.md). Here the cursors
 * are allocated once a procedure call, the tokens resolved once, and an edge's properties read from
 * the cursor that found it.
 *
 * One per procedure call, closed when the call has computed its rows (try-with-resources). A node
 * that is gone when read throws NotFoundException, as the core API does, so that Vanished retries.
 */
final class Reads implements AutoCloseable {
    private final InternalTransaction tx;
    private final KernelTransaction ktx;
    private final Read read;
    private final NodeCursor node;
    private final PropertyCursor properties;
    private final RelationshipTraversalCursor edges;
    /** One edge by id (Held: an assignment's properties, read only when the walk reaches its node). */
    private final RelationshipScanCursor edge;

    /** Property key tokens (TokenRead.NO_TOKEN when no record has ever had the property: then none has it). */
    private final int resource;
    private final int key;
    private final int tenant;
    private final int relation;
    private final int expiresAt;
    private final int role;
    private final int[] relatedAndGroups;
    private final int[] onlyRelated;
    private final int[] onlyGroups;
    private final int[] hasRoleOnly;
    private final int hasRole;
    private final int[] userGrants;
    private final int groups;

    private final PropertySelection typeOnly;
    private final PropertySelection typeKeyTenant;
    private final PropertySelection relationAndExpiry;
    private final PropertySelection roleAndExpiry;

    Reads(Transaction transaction) {
        this.tx = (InternalTransaction) transaction;
        this.ktx = tx.kernelTransaction();
        this.read = ktx.dataRead();
        TokenRead tokens = ktx.tokenRead();
        resource = tokens.propertyKey("resource");
        key = tokens.propertyKey("key");
        tenant = tokens.propertyKey("tenant");
        relation = tokens.propertyKey("relation");
        expiresAt = tokens.propertyKey("expires_at");
        role = tokens.propertyKey("role");
        int related = tokens.relationshipType(Walk.RELATED.name());
        groups = tokens.relationshipType(Walk.GROUPS.name());
        hasRole = tokens.relationshipType(Walk.HAS_ROLE.name());
        hasRoleOnly = known(hasRole);
        userGrants = known(hasRole, tokens.relationshipType(Walk.HAS_TENANT_ROLE.name()));
        relatedAndGroups = known(related, groups);
        onlyRelated = known(related);
        onlyGroups = known(groups);
        typeOnly = selection(resource);
        typeKeyTenant = selection(resource, key, tenant);
        relationAndExpiry = selection(relation, expiresAt);
        roleAndExpiry = selection(role, expiresAt);
        node = ktx.cursors().allocateNodeCursor(ktx.cursorContext(), ktx.memoryTracker());
        properties = ktx.cursors().allocatePropertyCursor(ktx.cursorContext(), ktx.memoryTracker());
        edges = ktx.cursors().allocateRelationshipTraversalCursor(ktx.cursorContext(), ktx.memoryTracker());
        edge = ktx.cursors().allocateRelationshipScanCursor(ktx.cursorContext(), ktx.memoryTracker());
    }

    /** The tokens that exist (a name no record ever had has none: nothing can have it). */
    private static int[] known(int... tokens) {
        return java.util.Arrays.stream(tokens).filter(t -> t != TokenConstants.NO_TOKEN).toArray();
    }

    private static PropertySelection selection(int... keys) {
        int[] present = known(keys);
        return present.length == 0 ? PropertySelection.NO_PROPERTIES : PropertySelection.selection(present);
    }

    /** A node of this transaction by id, not read until used (the neighbours the edges name). */
    Node nodeOf(long id) {
        return tx.newNodeEntity(id);
    }

    /** The node's `resource` (its type), or null when it has none. */
    Object typeOf(long nodeId) {
        at(nodeId);
        node.properties(properties, typeOnly);
        Object type = null;
        while (properties.next()) if (properties.propertyKey() == resource) type = valueOf(properties.propertyValue());
        return type;
    }

    /** The node's `resource`, `key` and `tenant` (each null when missing), in one pass over its properties. */
    Object[] typeKeyAndTenant(long nodeId) {
        at(nodeId);
        node.properties(properties, typeKeyTenant);
        Object[] out = new Object[3];
        while (properties.next()) {
            int k = properties.propertyKey();
            Object v = valueOf(properties.propertyValue());
            if (k == resource) out[0] = v;
            else if (k == key) out[1] = v;
            else if (k == tenant) out[2] = v;
        }
        return out;
    }

    /** What `edges` gives for each edge: the node at its other end, whether it is a GROUPS edge, and two of its properties. */
    interface EdgeVisitor {
        void edge(long other, boolean isGroups, Object first, Object second);
    }

    /**
     * The RELATED and/or GROUPS edges at the node in one direction, each with its `relation` and
     * `expires_at` (fragments/rule/linksOfState's reads). The visitor must not read through this
     * object (the cursors are in use until this returns).
     */
    void links(long nodeId, Direction direction, boolean related, boolean groupEdges, EdgeVisitor visitor) {
        int[] types = related ? (groupEdges ? relatedAndGroups : onlyRelated) : onlyGroups;
        traverse(nodeId, types, direction, relationAndExpiry, relation, visitor);
    }

    /** The node's outgoing HAS_ROLE edges, each with its `role` and `expires_at` (fragments/rule/directAssignments' reads). */
    void roleGrants(long nodeId, EdgeVisitor visitor) {
        traverse(nodeId, hasRoleOnly, Direction.OUTGOING, roleAndExpiry, role, visitor);
    }

    /** An instance as a write procedure needs it: its node's id and its tenant (null: none). */
    record Instance(long id, String tenant) {}

    /** The instances this call looked up, by resource and key (a batch names one many times). */
    private final Map<String, Instance> instances = new HashMap<>();

    /** The instance of this resource and key, looked up once a call; null when there is none. */
    Instance instance(String env, String resource, Object key) {
        String ref = resource + '\u0000' + key;
        if (instances.containsKey(ref)) return instances.get(ref);
        Node found = findOne(Allowed.INSTANCE_KEY, env, resource, key);
        Instance instance = found == null ? null : new Instance(found.getId(), (String) found.getProperty("tenant", null));
        instances.put(ref, instance);
        return instance;
    }

    /**
     * An index's label and properties, in its order: a unique constraint's for findOne (Allowed.USER_KEY,
     * INSTANCE_KEY, ENVIRONMENT_ID), any range index's for findAll (ImportLinks.IN_ENV_ID).
     */
    record IndexKey(Label label, String... names) {}

    private static final long[] NONE = new long[0];

    /** The index lookups of this call, by index key (built on first use; keyed by the constant, no key built a lookup). */
    private final Map<IndexKey, Lookup> lookups = new java.util.IdentityHashMap<>();
    /** The cursor of every index lookup (allocated on the first). */
    private NodeValueIndexCursor found;

    /**
     * The node of the label whose properties `names` have exactly `values` (the properties of a
     * unique constraint, in its order: User (env, key), Instance (env, resource, key)), or null when
     * there is none. Through the constraint's index with the kernel's cursor: its reader is opened and
     * the tokens resolved once a call, where the core API's findNodes looks the index up, opens a
     * reader and allocates a cursor for every lookup. Without that index online, findNodes.
     */
    Node findOne(IndexKey unique, Object... values) {
        return lookups.computeIfAbsent(unique, u -> new Lookup(u.label(), u.names())).find(values);
    }

    /**
     * Every node of the label whose properties have exactly `values`, by id, through the same index
     * lookup as findOne: for an index that is not unique (InEnv (env, id): ImportLinks). None: empty.
     */
    long[] findAll(IndexKey index, Object... values) {
        return lookups.computeIfAbsent(index, u -> new Lookup(u.label(), u.names())).findAll(values);
    }

    /** Whether the node has the label (a label no record ever had: no). */
    boolean hasLabel(long nodeId, String label) {
        int token = ktx.tokenRead().nodeLabel(label);
        if (token == TokenConstants.NO_TOKEN) return false;
        at(nodeId);
        return node.hasLabel(token);
    }

    private final class Lookup {
        private final Label label;
        private final String[] names;
        private final int[] keys;
        /** The index's reader; null: no such index online (the core API answers). */
        private final IndexReadSession session;

        Lookup(Label label, String[] names) {
            this.label = label;
            this.names = names;
            TokenRead tokens = ktx.tokenRead();
            int labelId = tokens.nodeLabel(label.name());
            keys = new int[names.length];
            boolean known = labelId != TokenConstants.NO_TOKEN;
            for (int i = 0; i < names.length; i++) {
                keys[i] = tokens.propertyKey(names[i]);
                known &= keys[i] != TokenConstants.NO_TOKEN;
            }
            IndexReadSession open = null;
            if (known) {
                try {
                    SchemaRead schema = ktx.schemaRead();
                    IndexDescriptor index = schema.index(SchemaDescriptors.forLabel(labelId, keys), IndexType.RANGE);
                    if (index != IndexDescriptor.NO_INDEX && schema.indexGetStateNonLocking(index) == InternalIndexState.ONLINE) {
                        open = read.indexReadSession(index);
                    }
                } catch (KernelException e) {
                    open = null; // dropped meanwhile: the core API answers
                }
            }
            session = open;
        }

        Node find(Object[] values) {
            for (Object v : values) if (v == null) return null;
            if (session == null) return Allowed.findOne(tx, label, properties(values));
            seek(values);
            return found.next() ? tx.newNodeEntity(found.nodeReference()) : null;
        }

        long[] findAll(Object[] values) {
            for (Object v : values) if (v == null) return NONE;
            if (session == null) {
                try (ResourceIterator<Node> it = tx.findNodes(label, properties(values))) {
                    return it.stream().mapToLong(Node::getId).toArray();
                }
            }
            seek(values);
            long[] out = NONE;
            int n = 0;
            while (found.next()) {
                if (n == out.length) out = Arrays.copyOf(out, Math.max(1, n * 2));
                out[n++] = found.nodeReference();
            }
            return n == out.length ? out : Arrays.copyOf(out, n);
        }

        private Map<String, Object> properties(Object[] values) {
            Map<String, Object> properties = new HashMap<>();
            for (int i = 0; i < names.length; i++) properties.put(names[i], values[i]);
            return properties;
        }

        /** Positions the index cursor on the nodes with exactly these values. */
        private void seek(Object[] values) {
            if (found == null) found = ktx.cursors().allocateNodeValueIndexCursor(ktx.cursorContext(), ktx.memoryTracker());
            PropertyIndexQuery[] query = new PropertyIndexQuery[keys.length];
            for (int i = 0; i < keys.length; i++) query[i] = PropertyIndexQuery.exact(keys[i], values[i]);
            try {
                read.nodeIndexSeek(ktx.queryContext(), session, found, IndexQueryConstraints.unconstrained(), query);
            } catch (KernelException e) {
                throw new IllegalStateException("index lookup of " + label.name() + " failed: " + e.getMessage(), e);
            }
        }
    }

    /** What `userGrantEnds` gives for each edge: the node at its other end and the edge's id. */
    interface EndVisitor {
        void edge(long other, long edgeId);
    }

    /**
     * A user's outgoing HAS_ROLE and HAS_TENANT_ROLE edges in one pass over its relationship chain
     * (each edge's other end and id, no property record): `roles` gets the HAS_ROLE edges, `tenantRoles`
     * the others. The visitors must not read through this object.
     */
    void userGrantEnds(long nodeId, EndVisitor roles, EndVisitor tenantRoles) {
        at(nodeId);
        if (userGrants.length == 0) return;
        node.relationships(edges, RelationshipSelection.selection(userGrants, Direction.OUTGOING));
        while (edges.next()) {
            (edges.type() == hasRole ? roles : tenantRoles).edge(edges.otherNodeReference(), edges.relationshipReference());
        }
    }

    /** A relationship of this transaction by id, not read until used. */
    Relationship relationshipOf(long id) {
        return tx.newRelationshipEntity(id);
    }

    /**
     * One edge's `role` and `expires_at` ({role, expiresAt}, each null when missing), or null when the
     * edge was deleted since it was found (it grants nothing: as if it had been read after the delete).
     */
    Object[] roleAndExpiry(long edgeId) {
        read.singleRelationship(edgeId, edge);
        if (!edge.next()) return null;
        edge.properties(properties, roleAndExpiry);
        Object[] out = new Object[2];
        while (properties.next()) {
            int k = properties.propertyKey();
            if (k == role) out[0] = valueOf(properties.propertyValue());
            else if (k == expiresAt) out[1] = valueOf(properties.propertyValue());
        }
        return out;
    }

    private void traverse(long nodeId, int[] types, Direction direction, PropertySelection selection, int firstKey, EdgeVisitor visitor) {
        at(nodeId);
        if (types.length == 0) return;
        node.relationships(edges, RelationshipSelection.selection(types, direction));
        while (edges.next()) {
            edges.properties(properties, selection);
            Object first = null;
            Object second = null;
            while (properties.next()) {
                int k = properties.propertyKey();
                if (k == firstKey) first = valueOf(properties.propertyValue());
                else if (k == expiresAt) second = valueOf(properties.propertyValue());
            }
            visitor.edge(edges.otherNodeReference(), edges.type() == groups, first, second);
        }
    }

    /** Positions the node cursor on the node; a node deleted since it was found is NotFoundException (Vanished). */
    private void at(long nodeId) {
        read.singleNode(nodeId, node);
        if (!node.next()) throw new NotFoundException("Node " + nodeId + " not found");
    }

    /** The value as the core API gives it (a String, a Long, a Double, an array ...); null for no value. */
    private static Object valueOf(Value value) {
        return value == null ? null : value.asObjectCopy();
    }

    @Override
    public void close() {
        if (found != null) found.close();
        edge.close();
        edges.close();
        properties.close();
        node.close();
    }
}
