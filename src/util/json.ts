/** Attributes are stored on nodes as JSON text: `undefined` (not given) stays null, so a patch leaves them unchanged. */
export const toJson = (attributes: unknown): string | null => (attributes === undefined ? null : JSON.stringify(attributes));
export const fromJson = (text: string | null | undefined): Record<string, unknown> => (text ? JSON.parse(text) : {});
