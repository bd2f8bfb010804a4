import type { GraphCheck } from './walk';

/** One field: `<length>:<text>` (UTF-16 code units, as Java counts them too) or `~` for null. */
const field = (s: string | null): string => (s === null ? '~' : `${s.length}:${s}`);

/**
 * A batch of checks as the walk extension's one string (graphauthz.allowed, PackedChecks.java):
 * for each check its user, action, type, key and tenant, then `1` when it asks for what the set
 * rules read (`stored`) or `0`. The driver runs every parameter value through its type checks
 * (microseconds a value): a batch of eight checks as maps cost it 58-64 µs to pack, as one string
 * 11-14 µs (bench/driverPacking.mjs; docs/benchmarks.md, "Packing a batch's checks").
 */
export function packChecks(checks: readonly GraphCheck[]): string {
  let out = '';
  for (const c of checks) out += field(c.user) + field(c.action) + field(c.type) + field(c.key) + field(c.tenant) + (c.stored ? '1' : '0');
  return out;
}
