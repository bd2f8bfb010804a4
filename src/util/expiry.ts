import { invalidInput } from '../errors';
import { instantMs } from './time';

/**
 * `expires_at` of a grant (role assignment, tuple, group membership, group role): ISO 8601 in the
 * API, epoch milliseconds (an integer) on the edge. An edge whose expiry is at or before the
 * decision instant grants nothing. Answers null when absent; 422 when not an RFC 3339 date-time
 * with an offset (instantMs) or not in the future.
 */
export function expiryOf(value: string | null | undefined, path: string, nowMs = Date.now()): number | null {
  if (value === undefined || value === null) return null;
  const ms = instantMs(value);
  if (Number.isNaN(ms))
    throw invalidInput(`expires_at ${JSON.stringify(value)} is not an RFC 3339 date-time with an offset (such as 2030-01-31T12:00:00Z).`, [
      { path, message: 'must be an RFC 3339 date-time with an offset' },
    ]);
  if (ms <= nowMs)
    throw invalidInput(`expires_at ${JSON.stringify(value)} is not in the future.`, [{ path, message: 'must be in the future' }]);
  return ms;
}

/** The API form of a stored expiry (epoch ms, or null). */
export const expiryView = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();
