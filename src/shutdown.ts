import type { Server, ServerResponse } from 'node:http';
import { laneBusy, laneOf } from './http/lane';

const SETTLE_MAX_MS = 1000;

/**
 * Graceful stop of the HTTP server (SIGTERM/SIGINT). Tracks the answers in progress from the
 * start, so that on stop: no new connection is accepted, idle keep-alive connections close at
 * once, every request in flight is answered and its connection closed after its answer, and
 * only at `drainMs` (set above DB_TIMEOUT_MS, which bounds each Neo4j call) are the connections
 * still busy cut.
 */
export function gracefulDrain(server: Server): (drainMs: number) => Promise<{ cut: number }> {
  const inFlight = new Set<ServerResponse>();
  // The lane's connections and requests (src/http/lane.ts): counted, told, closed and cut alike.
  const lane = laneOf(server);
  let draining = false;
  let arrivals = 0;
  server.on('connection', () => arrivals++);
  const arrived = () => arrivals + (lane?.arrivals ?? 0);
  const settle = async () => {
    const until = Date.now() + SETTLE_MAX_MS;
    for (let seen = -1; seen !== arrived() && Date.now() < until; ) {
      seen = arrived();
      // Two check phases: each follows a poll phase, which accepts pending connections and reads sockets.
      for (let i = 0; i < 2; i++) await new Promise((ok) => setImmediate(ok));
    }
  };
  server.on('request', (_req, res: ServerResponse) => {
    // Also a request that arrives on a kept-alive connection during the drain: answered, then its connection closed.
    arrivals++;
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
    if (lane) lane.draining = true;
    // Connections the kernel accepted but Node did not yet (closing the listener resets them), and
    // requests sent on kept-alive connections just before the signal but still unread (the
    // connection looks idle, server.close() resets it): let the event loop take them in first,
    // round after round, until a round brings nothing new (at most SETTLE_MAX_MS).
    await settle();
    const closed = new Promise<void>((ok) => server.close(() => ok())); // also closes the idle connections
    server.closeIdleConnections();
    let cut = 0;
    const deadline = setTimeout(() => {
      cut = inFlight.size + (lane ? laneBusy(lane) : 0);
      server.closeAllConnections();
    }, drainMs);
    await closed;
    clearTimeout(deadline);
    return { cut };
  };
}
