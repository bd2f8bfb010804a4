/**
 * Small builders for JSON Schemas, so route tables stay short. Objects reject unknown
 * fields unless told otherwise (CONTRACT section 1: unknown fields are rejected).
 */
export type JsonSchema = Record<string, unknown>;

export const SCHEMA_KEY_PATTERN = '^[A-Za-z0-9_\\-]+$';
/** Fact keys: any 1-256 characters without control characters. */
export const FACT_KEY_PATTERN = '^[^\\u0000-\\u001f\\u007f]+$';

export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const int = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });
export const bool = (): JsonSchema => ({ type: 'boolean' });
export const nullable = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, 'null'] });
export const arr = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'array', items, ...extra });
export const schemaKey = (): JsonSchema => str({ minLength: 1, maxLength: 128, pattern: SCHEMA_KEY_PATTERN });
export const factKey = (): JsonSchema => str({ minLength: 1, maxLength: 256, pattern: FACT_KEY_PATTERN });
export const idOrKey = (): JsonSchema => str({ minLength: 1, maxLength: 256 });
export const anyObject = (): JsonSchema => ({ type: 'object' });
/** Free-form caller data (`attributes`, `context`): any object, kept as sent. */
export const freeObject = (): JsonSchema => ({ type: 'object', additionalProperties: true });
export const timestamp = (): JsonSchema => str({ format: 'date-time' });

export function obj(properties: Record<string, JsonSchema>, required: string[] = [], extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

/** A map with free keys whose values follow `values`. */
export const mapOf = (values: JsonSchema, keys: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  additionalProperties: values,
  ...(Object.keys(keys).length ? { propertyNames: keys } : {}),
});

/** Pages past this would overflow the skip arithmetic in Cypher. */
export const MAX_PAGE = 1_000_000;

export const PAGING_QUERY = {
  page: int({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
  // The upper bound is checked by `paging()` so that it answers PAGINATION_SIZE_OVERREACHED.
  per_page: int({ minimum: 1, default: 30 }),
};

export const envelope = (item: JsonSchema): JsonSchema =>
  obj({ data: arr(item), total_count: int(), page_count: int() }, ['data', 'total_count', 'page_count']);

/** The organization/project/environment fields of every record view (`scoped()` in src/auth/types.ts). */
export const SCOPED_FIELDS = { organization_id: str(), project_id: str(), environment_id: str() };

export const PROJ_ENV_PARAMS = { proj_id: idOrKey(), env_id: idOrKey() };
