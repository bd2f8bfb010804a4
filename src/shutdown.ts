import type { Server, ServerResponse } from 'node:http';

const READ_PENDING_MS = 50;

/**
 * Graceful stop of the HTTP server (SIGTERM/SIGINT). Tracks the answers in progress from the
 * start, so that on stop: no new connection is accepted, idle keep-alive connections close at
 * once, every request in flight is answered and its connection closed after its answer, and
 * only at `drainMs` (set above DB_TIMEOUT_MS, which bounds each Neo4j call) are the connections
 * still busy cut.
 */
export function gracefulDrain(server: Server): (drainMs: number) => Promise<{ cut: number }> {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.on('request', (_req, res: ServerResponse) => {
    // Also a request that arrives on a kept-alive connection during the drain: answered, then its connection closed.
    if (draining) res.shouldKeepAlive = false;
    inFlight.add(res);
    res.on('close', () => {
      inFlight.delete(res);
      if (draining) server.closeIdleConnections();
    });
  });

  return async (drainMs) => {
    draining = true;
    // Connection: close on answers not yet sent, so that the client does not reuse a connection that is going away.
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    // A request the client sent on a kept-alive connection just before the signal may still sit
    // unread in the socket: the connection looks idle and server.close() would reset it. One short
    // turn of the event loop reads it first, so it counts as in flight.
    await new Promise((ok) => setTimeout(ok, READ_PENDING_MS));
    const closed = new Promise<void>((ok) => server.close(() => ok())); // also closes the idle connections
    server.closeIdleConnections();
    let cut = 0;
    const deadline = setTimeout(() => {
      cut = inFlight.size;
      server.closeAllConnections();
    }, drainMs);
    await closed;
    clearTimeout(deadline);
    return { cut };
  };
}
