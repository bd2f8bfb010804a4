import { invalidInput } from '../errors';

/** The `created_at` / `updated_at` stamp written with a record (ISO 8601, UTC). */
export const now = () => new Date().toISOString();

/**
 * A `from` / `to` filter as the instant it names, in the form of the stored stamps (ISO 8601,
 * UTC, milliseconds), so that stamps compare as instants whatever the filter's offset. 422 when
 * the value names no instant the clock can hold (a leap second `23:59:60` passes the date-time
 * format but not Date).
 */
export function instantFilter(value: string | undefined, path: string): string | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalidInput(`${path.split('/').pop()} must be an instant (ISO 8601 date-time): ${JSON.stringify(value)} is not one.`, [{ path, message: 'is not an instant' }]);
  return new Date(ms).toISOString();
}
