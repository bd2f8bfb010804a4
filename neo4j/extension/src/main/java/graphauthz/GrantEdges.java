package graphauthz;

import java.util.UUID;

import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.NotFoundException;
import org.neo4j.internal.kernel.api.NodeCursor;
import org.neo4j.internal.kernel.api.PropertyCursor;
import org.neo4j.internal.kernel.api.Read;
import org.neo4j.internal.kernel.api.RelationshipScanCursor;
import org.neo4j.internal.kernel.api.RelationshipTraversalCursor;
import org.neo4j.internal.kernel.api.TokenWrite;
import org.neo4j.internal.kernel.api.Write;
import org.neo4j.kernel.api.KernelTransaction;
import org.neo4j.kernel.api.exceptions.Status;
import org.neo4j.storageengine.api.PropertySelection;
import org.neo4j.storageengine.api.RelationshipSelection;
import org.neo4j.values.storable.Value;
import org.neo4j.values.storable.Values;

/**
 * The grant edges the write procedures make, as the Cypher statements' `MERGE (a)-[r:TYPE {key: value}]->(b)
 * ON CREATE SET r.id, r.tenant, r.created_at, r.expires_at` with fragments/renewExpiredGrant.cypher as
 * its ON MATCH: role assignments (HAS_ROLE {role}, AssignInstanceRoles) and relationship tuples
 * (RELATED {relation}, CreateTuples). Through the kernel's API, with its cursors and tokens made
 * once a call; closed when the call has written (try-with-resources).
 */
final class GrantEdges implements AutoCloseable {
    /** What one merge did: created the edge, renewed an expired one, or found a live one; its id and created_at. */
    record Merged(boolean created, boolean renewed, String id, String createdAt) {}

    private final KernelTransaction ktx;
    private final Read read;
    private final Write write;
    private final NodeCursor node;
    private final NodeCursor other;
    private final RelationshipTraversalCursor rels;
    private final PropertyCursor props;
    private RelationshipScanCursor scan;
    private final int type;
    private final int keyProperty;
    private final int inTenant;
    private final int id;
    private final int tenant;
    private final int createdAt;
    private final int expiresAt;
    private final int key;
    private final int tenantLabel;
    private final PropertySelection keyOnly;
    private final PropertySelection renewal;
    private final RelationshipSelection outgoing;
    private final RelationshipSelection incoming;

    /** Edges of this type (`HAS_ROLE`), told apart between the same ends by this property (`role`). */
    GrantEdges(KernelTransaction ktx, String typeName, String keyName) throws KernelException {
        this.ktx = ktx;
        read = ktx.dataRead();
        write = ktx.dataWrite();
        TokenWrite tokens = ktx.tokenWrite();
        type = tokens.relationshipTypeGetOrCreateForName(typeName);
        keyProperty = tokens.propertyKeyGetOrCreateForName(keyName);
        inTenant = tokens.relationshipTypeGetOrCreateForName("IN_TENANT");
        id = tokens.propertyKeyGetOrCreateForName("id");
        tenant = tokens.propertyKeyGetOrCreateForName("tenant");
        createdAt = tokens.propertyKeyGetOrCreateForName("created_at");
        expiresAt = tokens.propertyKeyGetOrCreateForName("expires_at");
        key = tokens.propertyKeyGetOrCreateForName("key");
        tenantLabel = tokens.labelGetOrCreateForName("Tenant");
        keyOnly = PropertySelection.selection(keyProperty);
        renewal = PropertySelection.selection(id, createdAt, expiresAt);
        outgoing = RelationshipSelection.selection(type, Direction.OUTGOING);
        incoming = RelationshipSelection.selection(type, Direction.INCOMING);
        node = ktx.cursors().allocateNodeCursor(ktx.cursorContext(), ktx.memoryTracker());
        other = ktx.cursors().allocateNodeCursor(ktx.cursorContext(), ktx.memoryTracker());
        rels = ktx.cursors().allocateRelationshipTraversalCursor(ktx.cursorContext(), ktx.memoryTracker());
        props = ktx.cursors().allocatePropertyCursor(ktx.cursorContext(), ktx.memoryTracker());
    }

    /**
     * MERGE (start)-[r:TYPE {key: keyValue}]->(end) ON CREATE SET r.id, r.tenant = edgeTenant,
     * r.created_at = nowIso, r.expires_at = expiry; ON MATCH the renewal of an expired edge.
     */
    Merged merge(long start, long end, String keyValue, String edgeTenant, Long expiry, String nowIso, long nowMs)
            throws KernelException {
        // Both ends locked in id order, as Cypher's MERGE locks them before it writes, so that a
        // concurrent batch cannot create the same edge between this look and the write.
        ktx.locks().acquireExclusiveNodeLock(Math.min(start, end), Math.max(start, end));
        return mergeFromLocked(start, end, keyValue, edgeTenant, expiry, nowIso, nowMs);
    }

    /**
     * merge, with `start` already locked exclusively by this transaction and `end` not locked: every
     * transaction that makes or renews an edge of this type from `start` holds that lock, so two
     * never make the same edge. `end` needs no lock of ours: Neo4j's relationship creation takes its
     * ends' deletion locks shared and fails on an end already deleted (the call then fails with
     * Deleted, transient), and a DETACH DELETE of `end` takes them exclusively before it reads the
     * edges to delete, so it waits for this commit and deletes this edge too. Concurrent batches
     * granting roles on the same instances then no longer wait for each other's commits
     * (docs/walk-extension.md, "Writes").
     */
    Merged mergeFromLocked(long start, long end, String keyValue, String edgeTenant, Long expiry, String nowIso, long nowMs)
            throws KernelException {
        long edge = find(start, end, keyValue);
        if (edge < 0) {
            long r = write.relationshipCreate(start, type, end);
            String newId = UUID.randomUUID().toString();
            write.relationshipSetProperty(r, keyProperty, Values.stringValue(keyValue));
            write.relationshipSetProperty(r, id, Values.stringValue(newId));
            if (edgeTenant != null) write.relationshipSetProperty(r, tenant, Values.stringValue(edgeTenant));
            write.relationshipSetProperty(r, createdAt, Values.stringValue(nowIso));
            if (expiry != null) write.relationshipSetProperty(r, expiresAt, Values.longValue(expiry));
            return new Merged(true, false, newId, nowIso);
        }
        // ON MATCH: an expired edge is made again as new; one without an id gets one.
        String oldId = null;
        String oldCreated = null;
        Long oldExpiry = null;
        if (scan == null) scan = ktx.cursors().allocateRelationshipScanCursor(ktx.cursorContext(), ktx.memoryTracker());
        read.singleRelationship(edge, scan);
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
        if (oldExpiry != null && oldExpiry <= nowMs) {
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

    /** The edge of this key from start to end, looked for from the end that is not dense; -1: none. */
    private long find(long start, long end, String keyValue) {
        // Either end deleted since it was found (its lock was waited for): the batch is written again.
        read.singleNode(start, node);
        if (!node.next()) throw new NotFoundException("Node " + start + " not found");
        read.singleNode(end, other);
        if (!other.next()) throw new NotFoundException("Node " + end + " not found");
        // A node with few edges (not dense) is read whole in one pass; a dense one knows its degree
        // at once. So: the end that is not dense, else the one with fewer such edges.
        boolean startDense = node.supportsFastDegreeLookup();
        boolean endDense = other.supportsFastDegreeLookup();
        boolean fromStart = startDense && endDense ? node.degree(outgoing) <= other.degree(incoming) : !startDense;
        NodeCursor from = fromStart ? node : other;
        long target = fromStart ? end : start;
        from.relationships(rels, fromStart ? outgoing : incoming);
        Value wanted = Values.stringValue(keyValue);
        while (rels.next()) {
            if (rels.otherNodeReference() != target) continue;
            rels.properties(props, keyOnly);
            while (props.next()) {
                if (props.propertyKey() == keyProperty && props.propertyValue().equals(wanted)) return rels.relationshipReference();
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
            if (tenantKey != null && tenantKey.equals(keyOf(other))) return true;
        }
        return false;
    }

    private Object keyOf(NodeCursor n) {
        n.properties(props, PropertySelection.selection(key));
        while (props.next()) if (props.propertyKey() == key) return props.propertyValue().asObjectCopy();
        return null;
    }

    /**
     * A record of the batch deleted under it: reported with Neo4j's transient status
     * `Neo.TransientError.Transaction.Outdated` (what Cypher's MERGE on a deleted node would report is
     * a client error), which the service's write transaction sends again: the second attempt no
     * longer finds the record and explains the item (404), as a batch naming a missing record does.
     */
    static final class Deleted extends RuntimeException implements Status.HasStatus {
        Deleted(Throwable cause) {
            super("A record of this batch was deleted by a concurrent commit; write the batch again", cause);
        }

        @Override
        public Status status() {
            return Status.Transaction.Outdated;
        }
    }

    /** A procedure's failure as it reaches the caller: a deletion under the call is Deleted (transient). */
    static RuntimeException failure(String procedure, Exception e) {
        if (Vanished.vanished(e)) return new Deleted(e);
        if (e instanceof RuntimeException r) return r;
        return new IllegalStateException(procedure + ": " + e.getMessage(), e);
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
