import { fullFormats } from 'ajv-formats/dist/formats';
import { invalidInput } from '../errors';

/** RFC 3339 date-time with an offset, a real calendar day (the schemas' `date-time` format). */
const isDateTime = (fullFormats['date-time'] as { validate: (value: string) => boolean }).validate;

/**
 * The epoch milliseconds an RFC 3339 date-time with an offset names; NaN for anything else
 * (`Date.parse` alone takes "2030", a local time, February 30 as March 2) and for a leap second
 * `23:59:60`, which the format admits but no clock instant is.
 */
export const instantMs = (value: string): number => (isDateTime(value) ? Date.parse(value) : NaN);

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
  const ms = instantMs(value);
  if (Number.isNaN(ms))
    throw invalidInput(`${path.split('/').pop()} must be an instant (ISO 8601 date-time): ${JSON.stringify(value)} is not one.`, [
      { path, message: 'is not an instant' },
    ]);
  return new Date(ms).toISOString();
}
