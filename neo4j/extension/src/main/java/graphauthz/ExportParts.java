package graphauthz;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Lock;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.NotFoundException;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.RelationshipType;
import org.neo4j.graphdb.ResourceIterator;
import org.neo4j.graphdb.Transaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

/**
 * graphauthz.exportParts: the records and links of an environment that cypher/export/nodes.cypher
 * and cypher/export/relationships.cypher read, in the calling query's transaction (an export that
 * holds its environment's writers, src/areas/snapshots/service.ts), as a few large strings instead
 * of one row a record: each row is a section ("nodes" or "relationships"), a part (lines joined by
 * "\n") and the count of its lines. A relationship line is the export's own line
 * ({"type":"relationship","rel":...,"from":...,"to":...,"props":{...}}); a node line is its labels
 * (a JSON list, without InEnv), a tab, and its properties (a JSON object), the service making the
 * export's line of it. The same records, labels, properties and links as the Cypher statements
 * (the same selection, the same properties left out), each value written as JSON.stringify writes
 * what the driver reads (an integral double as an integer, a non-finite one as null). A value of
 * another type (temporal, spatial) fails the call: the service reads the environment with Cypher
 * instead. Nothing is kept between calls.
 *
 * Exact at one revision R, its writers going on: every write to an environment moves its revision
 * (src/db/db.ts) in its own transaction, taking the environment node's lock exclusively, and holds
 * it until it commits. The call takes that lock (shared) only to read R and open an ExportCapture:
 * writes that produced a revision up to R have committed (and are read, Neo4j reading committed
 * data); every later one tells the capture, before its changes become visible, the state at R of
 * each record and link it changes. The lock is let go and the environment read while writes go on
 * (Captured): a record or link is kept as read when the capture, checked after reading it, shows it
 * unchanged since R; everything else is made from the capture at the end, under the lock again
 * (no writer of the environment commits then, so the capture is complete): the records changed
 * since R as they were, and the links of every record whose links changed (or were being changed
 * while read). Writers wait for those two short holds only. A capture that could not note a change
 * (ExportCapture.failure) makes the call read the environment again with its writers held (at most
 * holdMs; longer answers one row, section "too_large", and no parts).
 */
public final class ExportParts {
    @Context
    public Transaction tx;

    @Context
    public GraphDatabaseService db;

    public static final class Part {
        public String section;
        public String part;
        public long lines;
        /** The revision every part holds, and how long the environment's writers were held (ms). */
        public long revision;
        public long heldMs;

        Part(String section, String part, long lines) {
            this.section = section;
            this.part = part;
            this.lines = lines;
        }
    }

    /** cypher/export/nodes.cypher: each label and the properties its section requires. */
    private static final String[][] SECTIONS = {
        {"Resource", "key"},
        {"ResourceRole", "resource"},
        {"Relation", "resource", "key"},
        {"Derivation"},
        {"Role", "key"},
        {"ActionGroup", "resource", "key"},
        {"Tenant", "key"},
        {"User", "key"},
        {"Instance", "resource", "key"},
        {"ElementsConfig", "key"},
        {"OperationApproval", "config_id", "tenant"},
        {"ConditionSet", "key"},
        {"SetRule", "key"},
        {"ProxyConfig", "key"},
        {"UserInvite", "id"},
    };
    /** Properties the export leaves out (nodes.cypher sets them to null). */
    private static final Set<String> LEFT_OUT = Set.of("env", "_lock", "webhook_secret", "webhook_bearer_token", "webhook_seq");
    /** cypher/export/relationships.cypher: the link types, the labels of a link's start, those its end must not have. */
    private static final String[] TYPE_LIST = {"HAS_ROLE", "HAS_TENANT_ROLE", "IN_TENANT", "RELATED", "GROUPS", "EXTENDS",
            "HAS_RELATION", "SUBJECT", "DERIVES", "OF_CONFIG", "REQUESTED_BY", "ON_INSTANCE", "REVIEWED_BY", "OF_RESOURCE", "NARROWS",
            "USER_SET", "RESOURCE_SET"};
    private static final RelationshipType[] TYPES = types(TYPE_LIST);
    private static final Set<String> TYPE_NAMES = Set.of(TYPE_LIST);
    private static final Label[] FROM = labels("Resource", "ResourceRole", "Relation", "Derivation", "Role", "Tenant", "User", "Instance",
            "ElementsConfig", "OperationApproval", "ConditionSet", "SetRule");
    private static final Label[] NOT_TO = labels("Session", "LoginCode", "WebhookDelivery", "AuditEvent", "DecisionLogBatch");
    private static final Label IN_ENV = Label.label("InEnv");
    /** Property names as JSON keys (`"name":`), written once. */
    private static final java.util.concurrent.ConcurrentHashMap<String, String> KEYS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Label ENVIRONMENT = Label.label("Environment");
    /** Each link type's line up to its start's id. */
    private static final java.util.concurrent.ConcurrentHashMap<String, String> LINK_PREFIX = new java.util.concurrent.ConcurrentHashMap<>();

    @Procedure(name = "graphauthz.exportParts", mode = Mode.READ)
    @Description("The records and links of an environment at one revision while its writers go on, as parts of lines (src/areas/snapshots/service.ts).")
    public Stream<Part> exportParts(@Name("env") String env, @Name("partChars") long partChars, @Name("holdMs") long holdMs,
            @Name(value = "pauseMs", defaultValue = "0") long pauseMs) {
        int size = (int) Math.max(1024, Math.min(partChars, 64L * 1024 * 1024));
        Node environment = tx.findNode(ENVIRONMENT, "id", env);
        if (environment == null) return Stream.empty();
        // Writers of the environment wait from here (each takes this lock, exclusively, to move the
        // revision), but only while the revision is read and the capture opened.
        Lock lock = tx.acquireReadLock(environment);
        // Held from here: the time a writer may wait for this export (not the export's own wait for the lock).
        long started = System.nanoTime();
        long revision;
        ExportCapture capture;
        try {
            revision = ((Number) environment.getProperty("revision", 0L)).longValue();
            capture = ExportCapture.open(db, env);
        } finally {
            lock.release();
        }
        long heldNs = System.nanoTime() - started;
        Captured read = null;
        try {
            if (capture.failure == null) {
                read = new Captured(env, capture, size);
                pause(pauseMs);
                read.readRecords();
                pause(pauseMs);
                read.readLinks();
                heldNs += read.reconcile(environment);
            }
        } finally {
            capture.close(db);
        }
        // A change the capture could not note: read again, the writers held.
        if (capture.failure != null) return held(environment, env, size, holdMs);
        List<Part> parts = read.parts();
        long heldMs = heldNs / 1_000_000L;
        for (Part p : parts) {
            p.revision = revision;
            p.heldMs = heldMs;
        }
        return parts.stream();
    }

    /**
     * For tests only (test/http/export-capture.test.ts; the service never passes pauseMs): a pause
     * before the records are read and another before the links, so that writes land in both.
     */
    private static void pause(long ms) {
        if (ms <= 0) return;
        try {
            Thread.sleep(Math.min(ms, 30_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The environment read with its writers held (the lock, shared) while every record and link is
     * read into memory, at most holdMs: when a capture fails. The same read as a captured one, with
     * a capture nothing reaches (no writer of the environment commits while the lock is held).
     */
    private Stream<Part> held(Node environment, String env, int size, long holdMs) {
        // Writers of the environment wait from here.
        Lock lock = tx.acquireReadLock(environment);
        long started = System.nanoTime();
        long revision = 0;
        List<Part> read;
        try {
            revision = ((Number) environment.getProperty("revision", 0L)).longValue();
            Captured all = new Captured(env, ExportCapture.unchanging(env), size, started + holdMs * 1_000_000L);
            all.readRecords();
            all.readLinks();
            read = all.parts();
        } catch (TooLarge e) {
            // Not read within the bound: the writers go on, and the service exports otherwise.
            read = List.of(new Part("too_large", "", 0));
        } finally {
            lock.release();
        }
        // The writers go on; the parts are answered from memory.
        long heldMs = (System.nanoTime() - started) / 1_000_000L;
        for (Part p : read) {
            p.revision = revision;
            p.heldMs = heldMs;
        }
        return read.stream();
    }

    /** A held read past its bound. */
    private static final class TooLarge extends RuntimeException {
        TooLarge() {
            super(null, null, false, false);
        }
    }

    /**
     * The environment read while its writers go on (the capture opened at R): every record and
     * link is read, and kept only if the capture then shows it unchanged since R (a change is
     * noted before it becomes visible, so what was read before it is its state at R); the others,
     * and the links of every record whose links changed, are made from their state at R under the
     * lock at the end (reconcile), when no writer of the environment commits.
     */
    private final class Captured {
        private final String env;
        private final ExportCapture capture;
        private final Lines records;
        private final Lines links;
        /** Records already written, by (id, section): id * 32 + section. */
        private final Set<Long> written = new HashSet<>();
        /** Records whose links were written (read unchanged). */
        private final Set<Long> linked = new HashSet<>();
        /** Records whose links must be made at the end (they, a link or an end changed while read). */
        private final Set<Long> relink = new HashSet<>();
        /** A link's end: its id as JSON, or "" when the export leaves the link out; kept only when read unchanged. */
        private final Map<Long, String> ends = new HashMap<>();
        /** System.nanoTime() past which the read gives up (TooLarge): a held read's bound. */
        private final long deadline;

        Captured(String env, ExportCapture capture, int size) {
            this(env, capture, size, Long.MAX_VALUE);
        }

        Captured(String env, ExportCapture capture, int size, long deadline) {
            this.env = env;
            this.capture = capture;
            this.deadline = deadline;
            this.records = new Lines("nodes", size);
            this.links = new Lines("relationships", size);
        }

        void readRecords() {
            for (int section = 0; section < SECTIONS.length; section++) {
                String[] sec = SECTIONS[section];
                try (ResourceIterator<Node> found = tx.findNodes(Label.label(sec[0]), "env", env)) {
                    while (found.hasNext()) {
                        Node n = found.next();
                        long id = n.getId();
                        inTime();
                        StringBuilder line = new StringBuilder();
                        try {
                            boolean whole = true;
                            for (int i = 1; i < sec.length && whole; i++) whole = n.hasProperty(sec[i]);
                            if (!whole) continue; // changed since R or not: its state at R is judged at the end
                            nodeLine(line, n);
                        } catch (NotFoundException gone) {
                            continue; // deleted while read: after R, so the capture has it
                        }
                        if (capture.nodes.containsKey(id)) continue;
                        records.add(line);
                        written.add(id * 32 + section);
                    }
                }
            }
        }

        void readLinks() {
            try (ResourceIterator<Node> found = tx.findNodes(IN_ENV, "env", env)) {
                while (found.hasNext()) {
                    Node n = found.next();
                    long id = n.getId();
                    inTime();
                    StringBuilder lines = new StringBuilder();
                    long count = 0;
                    boolean redo = false;
                    try {
                        if (!hasAny(n, FROM)) continue; // a record that changed since R is redone at the end
                        String from = null;
                        for (Relationship r : n.getRelationships(Direction.OUTGOING, TYPES)) {
                            String to = endOf(r.getEndNode());
                            Map<String, Object> props = r.getAllProperties();
                            if (to == null || capture.rels.containsKey(r.getId())) {
                                redo = true;
                                break;
                            }
                            if (to.isEmpty()) continue;
                            if (from == null) from = json(n.getProperty("id", null));
                            if (count > 0) lines.append('\n');
                            linkLine(lines, r.getType().name(), from, to, props);
                            count++;
                        }
                    } catch (NotFoundException gone) {
                        redo = true;
                    }
                    if (redo || capture.changed(id)) relink.add(id);
                    else {
                        links.add(lines, count);
                        linked.add(id);
                    }
                }
            }
        }

        private void inTime() {
            if (deadline != Long.MAX_VALUE && System.nanoTime() > deadline) throw new TooLarge();
        }

        /** An end read unchanged: its id as JSON, or "" (left out); null when it changed since R. */
        private String endOf(Node b) {
            long id = b.getId();
            String known = ends.get(id);
            if (known != null) return known;
            String to;
            try {
                to = !env.equals(b.getProperty("env", null)) || hasAny(b, NOT_TO) ? "" : json(b.getProperty("id", null));
            } catch (NotFoundException gone) {
                return null;
            }
            if (capture.nodes.containsKey(id)) return null;
            ends.put(id, to);
            return to;
        }

        /**
         * Under the environment's lock (no writer of it commits, so the capture is complete and what
         * is read now is R and the changes it holds): the records changed since R as they were at R,
         * and the links of every record not read unchanged. Answers how long the writers waited (ns).
         */
        long reconcile(Node environment) {
            Lock lock = tx.acquireReadLock(environment);
            long started = System.nanoTime();
            try {
                if (capture.failure != null) return 0;
                for (Map.Entry<Long, ExportCapture.NodeImage> e : capture.nodes.entrySet()) {
                    ExportCapture.NodeImage was = e.getValue();
                    if (!was.existed || !env.equals(was.props.get("env"))) continue;
                    for (int section = 0; section < SECTIONS.length; section++) {
                        String[] sec = SECTIONS[section];
                        if (!was.labels.contains(sec[0]) || written.contains(e.getKey() * 32 + section)) continue;
                        boolean whole = true;
                        for (int i = 1; i < sec.length && whole; i++) whole = was.props.get(sec[i]) != null;
                        if (!whole) continue;
                        StringBuilder line = new StringBuilder();
                        nodeLine(line, was.labels, was.props);
                        records.add(line);
                    }
                }
                Set<Long> starts = new HashSet<>(relink);
                starts.addAll(capture.touched);
                for (Map.Entry<Long, ExportCapture.NodeImage> e : capture.nodes.entrySet()) if (e.getValue().existed) starts.add(e.getKey());
                starts.removeAll(linked);
                Map<Long, List<ExportCapture.RelImage>> changedFrom = new HashMap<>();
                for (ExportCapture.RelImage was : capture.rels.values()) {
                    if (was.existed && TYPE_NAMES.contains(was.type)) changedFrom.computeIfAbsent(was.start, k -> new ArrayList<>()).add(was);
                }
                for (long start : starts) {
                    State at = stateAt(start);
                    if (at == null || !env.equals(at.props.get("env")) || !hasAnyName(at.labels, FROM)) continue;
                    String from = json(at.props.get("id"));
                    Node now = nodeNow(start);
                    if (now != null) {
                        // Its links now that did not change since R: as read.
                        for (Relationship r : now.getRelationships(Direction.OUTGOING, TYPES)) {
                            if (capture.rels.containsKey(r.getId())) continue;
                            link(r.getType().name(), from, r.getEndNode().getId(), r.getAllProperties());
                        }
                    }
                    // Those that changed or went since R: as they were.
                    for (ExportCapture.RelImage was : changedFrom.getOrDefault(start, List.of())) link(was.type, from, was.end, was.props);
                }
            } finally {
                lock.release();
            }
            return System.nanoTime() - started;
        }

        private void link(String type, String from, long end, Map<String, Object> props) {
            State at = stateAt(end);
            if (at == null || !env.equals(at.props.get("env")) || hasAnyName(at.labels, NOT_TO)) return;
            StringBuilder line = new StringBuilder();
            linkLine(line, type, from, json(at.props.get("id")), props);
            links.add(line, 1);
        }

        /** A record at R: as the capture holds it when it changed since, else as it is now; null when it did not exist. */
        private State stateAt(long id) {
            ExportCapture.NodeImage was = capture.nodes.get(id);
            if (was != null) return was.existed ? new State(was.labels, was.props) : null;
            Node now = nodeNow(id);
            if (now == null) return null;
            Set<String> labels = new HashSet<>();
            for (Label l : now.getLabels()) labels.add(l.name());
            return new State(labels, now.getAllProperties());
        }

        private Node nodeNow(long id) {
            try {
                return tx.getNodeById(id);
            } catch (NotFoundException gone) {
                return null;
            }
        }

        List<Part> parts() {
            List<Part> out = new ArrayList<>(records.parts());
            out.addAll(links.parts());
            if (out.isEmpty()) out.add(new Part("none", "", 0));
            return out;
        }
    }

    private record State(Set<String> labels, Map<String, Object> props) {}

    /** Lines of one section gathered into parts of about `size` characters. */
    private static final class Lines {
        private final String section;
        private final int size;
        private final List<Part> done = new ArrayList<>();
        private StringBuilder out;
        private long lines;

        Lines(String section, int size) {
            this.section = section;
            this.size = size;
        }

        void add(CharSequence text, long count) {
            if (count == 0) return;
            if (out == null) out = new StringBuilder(size + 4096);
            else out.append('\n');
            out.append(text);
            lines += count;
            if (out.length() >= size) flush();
        }

        void add(CharSequence line) {
            add(line, 1);
        }

        private void flush() {
            if (out != null && lines > 0) done.add(new Part(section, out.toString(), lines));
            out = null;
            lines = 0;
        }

        List<Part> parts() {
            flush();
            return done;
        }
    }

    private static void nodeLine(StringBuilder out, Node n) {
        List<String> labels = new ArrayList<>();
        for (Label l : n.getLabels()) labels.add(l.name());
        nodeLine(out, labels, n.getAllProperties());
    }

    private static void nodeLine(StringBuilder out, Iterable<String> labels, Map<String, Object> props) {
        out.append('[');
        boolean first = true;
        for (String l : labels) {
            if (l.equals("InEnv")) continue;
            if (!first) out.append(',');
            first = false;
            string(out, l);
        }
        out.append("]\t");
        props(out, props, true);
    }

    /** A link's line: {"type":"relationship","rel":...,"from":...,"to":...,"props":{...}}. */
    private static void linkLine(StringBuilder out, String type, String from, String to, Map<String, Object> props) {
        out.append(LINK_PREFIX.computeIfAbsent(type, t -> {
            StringBuilder rel = new StringBuilder("{\"type\":\"relationship\",\"rel\":");
            string(rel, t);
            return rel.append(",\"from\":").toString();
        }));
        out.append(from).append(",\"to\":").append(to).append(",\"props\":");
        props(out, props, false);
        out.append('}');
    }

    private static String json(Object v) {
        StringBuilder out = new StringBuilder();
        value(out, v);
        return out.toString();
    }

    private static void props(StringBuilder out, Map<String, Object> props, boolean node) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> e : props.entrySet()) {
            if (e.getValue() == null || (node && LEFT_OUT.contains(e.getKey()))) continue;
            if (!first) out.append(',');
            first = false;
            out.append(KEYS.computeIfAbsent(e.getKey(), k -> {
                StringBuilder key = new StringBuilder();
                string(key, k);
                return key.append(':').toString();
            }));
            value(out, e.getValue());
        }
        out.append('}');
    }

    private static void value(StringBuilder out, Object v) {
        if (v == null) out.append("null");
        else if (v instanceof String s) string(out, s);
        else if (v instanceof Boolean b) out.append(b.booleanValue());
        else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) out.append(((Number) v).longValue());
        else if (v instanceof Double || v instanceof Float) number(out, ((Number) v).doubleValue());
        else if (v instanceof Character c) string(out, String.valueOf(c));
        else if (v.getClass().isArray()) {
            out.append('[');
            int len = Array.getLength(v);
            for (int i = 0; i < len; i++) {
                if (i > 0) out.append(',');
                value(out, Array.get(v, i));
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("graphauthz.exportParts: a property of type " + v.getClass().getSimpleName()
                    + " is not one an export writes");
        }
    }

    /** A double as JSON.stringify writes the number the driver reads: integral ones as integers, non-finite ones as null. */
    private static void number(StringBuilder out, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) out.append("null");
        else if (d == Math.rint(d) && Math.abs(d) < 1e15) out.append((long) d);
        else out.append(Double.toString(d));
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** A string as JSON.stringify writes it (control characters and lone surrogates escaped). */
    static void string(StringBuilder out, String s) {
        out.append('"');
        if (plain(s)) {
            out.append(s).append('"');
            return;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean lone = Character.isHighSurrogate(c)
                            ? !(i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
                            : Character.isLowSurrogate(c) && !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
                    if (c < 0x20 || lone) {
                        out.append("\\u").append(HEX[(c >> 12) & 15]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Whether a string is written as it is (nothing to escape): most are. */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) return false;
        }
        return true;
    }

    private static boolean hasAnyName(Set<String> names, Label[] labels) {
        for (Label l : labels) if (names.contains(l.name())) return true;
        return false;
    }

    private static boolean hasAny(Node n, Label[] labels) {
        for (Label l : labels) if (n.hasLabel(l)) return true;
        return false;
    }

    private static RelationshipType[] types(String... names) {
        List<RelationshipType> out = new ArrayList<>();
        for (String n : names) out.add(RelationshipType.withName(n));
        return out.toArray(new RelationshipType[0]);
    }

    private static Label[] labels(String... names) {
        Label[] out = new Label[names.length];
        for (int i = 0; i < names.length; i++) out[i] = Label.label(names[i]);
        return out;
    }
}
