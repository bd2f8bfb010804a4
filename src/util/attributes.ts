import { invalidInput } from '../errors';

/** Largest serialized `attributes` object we keep on a record (docs/behaviour.md section 10). */
export const MAX_ATTRIBUTES_BYTES = 16 * 1024;

/**
 * `attributes` as stored (`attributes_json`): the object serialized, refused with a 422 past
 * 16 KiB so one record cannot bloat every read of its node. `undefined` stays undefined.
 */
export function attributesJson(attributes: Record<string, unknown> | undefined, path = '/body/attributes'): string | undefined {
  if (attributes === undefined) return undefined;
  const text = JSON.stringify(attributes);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_ATTRIBUTES_BYTES) {
    throw invalidInput(`attributes is ${bytes} bytes serialized; at most ${MAX_ATTRIBUTES_BYTES} bytes (16 KiB) are accepted.`, [
      { path, message: `must be at most ${MAX_ATTRIBUTES_BYTES} bytes serialized` },
    ]);
  }
  return text;
}
