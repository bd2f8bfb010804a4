import { attributesJson } from './attributes';

/**
 * Attributes are stored on nodes as JSON text, size-checked (see attributes.ts): `undefined`
 * (not given) stays null, so a patch leaves them unchanged.
 */
export const toJson = (attributes: Record<string, unknown> | undefined, path?: string): string | null =>
  attributesJson(attributes, path) ?? null;
export const fromJson = (text: string | null | undefined): Record<string, unknown> => (text ? JSON.parse(text) : {});
