// Local Neo4j Community (embedded DBMS + Bolt) for development and tests.
//
// Single-file program, no build step:
//   java -cp "$(cat .neo4j/classpath-<version>.txt)" neo4j/Launcher.java [port] [homeDir]
// Normally started via scripts/neo4j-local.mjs.
//
// Args (or env): port      NEO4J_LOCAL_PORT  (default 7687)
//                homeDir   NEO4J_LOCAL_DIR   (default ./.neo4j/data)
// Neo4j keeps its store in <homeDir>/data and its logs in <homeDir>/logs.
// Plugins load from <homeDir>/plugins, as the official image loads /plugins, and only procedures
// named graphauthz.* may load (dbms.security.procedures.allowlist; nothing is unrestricted).
// scripts/neo4j-local.mjs puts the walk extension's jar there (neo4j/extension, docs/walk-extension.md).
//
// Bolt listens on 127.0.0.1 only; auth is disabled for that reason. HTTP/HTTPS are off.
// Prints "NEO4J_READY bolt://127.0.0.1:<port>" once the default database answers queries.
// SIGTERM / SIGINT / stdin EOF (when NEO4J_LAUNCHER_EXIT_ON_STDIN_EOF=1) shut down cleanly.

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.Transaction;
import org.neo4j.io.ByteUnit;

public class Launcher {
    private static final String HOST = "127.0.0.1";
    /** The extension's procedures (neo4j/extension); the same value as neo4j/Dockerfile's. */
    private static final String PROCEDURE_ALLOWLIST = "graphauthz.*";

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(arg(args, 0, "NEO4J_LOCAL_PORT", "7687"));
        Path home = Path.of(arg(args, 1, "NEO4J_LOCAL_DIR", ".neo4j/data")).toAbsolutePath().normalize();
        Files.createDirectories(home);

        long t0 = System.nanoTime();
        log("starting Neo4j " + neo4jVersion() + " home=" + home + " bolt=" + HOST + ":" + port);

        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(HOST, port))
                .setConfig(BoltConnector.advertised_address, new SocketAddress(HOST, port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(HttpsConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                // The official image's NEO4J_dbms_security_procedures_allowlist=graphauthz.* and /plugins.
                .setConfig(GraphDatabaseSettings.plugin_dir, home.resolve("plugins"))
                .setConfig(GraphDatabaseSettings.procedure_allowlist, List.of(PROCEDURE_ALLOWLIST))
                // Modest memory footprint for a dev/test box.
                .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(256))
                // (Transaction state is kept on heap by default in 5.x.)
                // Keep transaction logs small: no 250 MiB preallocation, rotate early, keep little.
                .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                .setConfig(GraphDatabaseSettings.logical_log_rotation_threshold, ByteUnit.mebiBytes(32))
                .setConfig(GraphDatabaseSettings.keep_logical_logs, "2 files")
                // Bolt waits 5 s + 5 s for idle thread pools / connections on shutdown by default;
                // (internal, unsupported settings) shorten that so SIGTERM stops in ~1-2 s.
                .setConfig(BoltConnectorInternalSettings.thread_pool_shutdown_wait_time, Duration.ofMillis(500))
                .setConfig(BoltConnectorInternalSettings.connection_shutdown_wait_time, Duration.ofMillis(500))
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            log("shutting down");
            try {
                dbms.shutdown();
                log("stopped");
            } catch (Throwable t) {
                log("shutdown failed: " + t);
            } finally {
                stopped.countDown();
            }
        }, "neo4j-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);

        // Wait until the default database really serves transactions.
        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        if (!db.isAvailable(Duration.ofMinutes(3).toMillis())) {
            log("default database did not become available");
            System.exit(2);
        }
        try (Transaction tx = db.beginTx()) {
            tx.execute("RETURN 1").close();
            tx.commit();
        }

        if ("1".equals(System.getenv("NEO4J_LAUNCHER_EXIT_ON_STDIN_EOF"))) {
            // Parent keeps our stdin open; if it dies without stopping us, stdin hits EOF and we exit
            // (running the shutdown hook), so no orphaned JVM keeps the port and the store lock.
            Thread watcher = new Thread(() -> {
                try (InputStream in = System.in) {
                    byte[] buf = new byte[256];
                    while (in.read(buf) >= 0) {
                        // ignore input
                    }
                } catch (Exception ignored) {
                    // treat as EOF
                }
                log("stdin closed, exiting");
                System.exit(0);
            }, "stdin-watcher");
            watcher.setDaemon(true);
            watcher.start();
        }

        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        System.out.println("NEO4J_READY bolt://" + HOST + ":" + port + " (" + ms + " ms)");
        System.out.flush();

        stopped.await(); // block until the shutdown hook has run
    }

    private static String arg(String[] args, int i, String env, String dflt) {
        if (args.length > i && !args[i].isBlank()) return args[i];
        String v = System.getenv(env);
        return v != null && !v.isBlank() ? v : dflt;
    }

    private static String neo4jVersion() {
        String v = DatabaseManagementService.class.getPackage().getImplementationVersion();
        return v != null ? v : "(unknown version)";
    }

    private static void log(String msg) {
        System.out.println("[neo4j-launcher] " + msg);
        System.out.flush();
    }
}
