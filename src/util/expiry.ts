import { invalidInput } from '../errors';

/**
 * `expires_at` of a grant (role assignment, tuple, group membership, group role): ISO 8601 in the
 * API, epoch milliseconds (an integer) on the edge. An edge whose expiry is at or before the
 * decision instant grants nothing. Answers null when absent; 422 when unparsable or not in the future.
 */
export function expiryOf(value: string | null | undefined, path: string, nowMs = Date.now()): number | null {
  if (value === undefined || value === null) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalidInput(`expires_at ${JSON.stringify(value)} is not an ISO 8601 date-time.`, [{ path, message: 'must be an ISO 8601 date-time' }]);
  if (ms <= nowMs) throw invalidInput(`expires_at ${JSON.stringify(value)} is not in the future.`, [{ path, message: 'must be in the future' }]);
  return ms;
}

/** The API form of a stored expiry (epoch ms, or null). */
export const expiryView = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());
