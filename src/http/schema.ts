import type {
  Static,
  TArray,
  TAny,
  TBoolean,
  TInteger,
  TNull,
  TObject,
  TOptional,
  TRecord,
  TSchema,
  TString,
  TUnion,
  TUnknown,
  TUnsafe,
} from '@sinclair/typebox';

/**
 * Small builders for JSON Schemas, so route tables stay short. Objects reject unknown
 * fields unless told otherwise (docs/behaviour.md section 1: unknown fields are rejected).
 *
 * The values are plain JSON Schemas (what ajv validates and the OpenAPI document shows); their
 * TypeScript types are TypeBox's, so `Static<typeof schema>` (and a handler's `r.body`, see
 * `route()` in routeTable.ts) is the type the schema admits, derived, never written twice.
 * A schema written as a bare object literal has no derived type and reads as `any`.
 */
export type JsonSchema = Record<string, unknown>;
export type { Static, TSchema };

/** The TypeBox type of a schema: its own when built by these helpers, else `any`. */
export type Typed<S> = S extends TSchema ? S : TAny;
/** The value type a schema admits (`any` for an untyped literal). */
// biome-ignore lint/suspicious/noExplicitAny: a schema written as a bare literal has no derived type
export type StaticOf<S> = S extends TSchema ? Static<S> : any;

/** The `{name: schema}` map of path parameters as the type of the params object. */
// biome-ignore lint/suspicious/noExplicitAny: a route without path parameters admits any params object
export type ParamsOf<P> = P extends undefined ? any : { [K in keyof P]: StaticOf<P[K]> };

// `__proto__` is refused: schema keys become the keys of JSON maps (a resource's actions, roles,
// attributes), and a body holding that key is refused already (src/http/hotPath.ts, bodyParser).
export const SCHEMA_KEY_PATTERN = '^(?!__proto__$)[A-Za-z0-9_\\-]+$';
/** Fact keys: any 1-256 characters without control characters. */
export const FACT_KEY_PATTERN = '^[^\\u0000-\\u001f\\u007f]+$';

/** The helpers build plain objects; this gives them their TypeBox type. */
const typed = <T extends TSchema>(schema: JsonSchema): T => schema as unknown as T;

/** A string; with `enum`, its type is the union of the listed values. */
export function str<const E extends string>(extra: JsonSchema & { enum: readonly E[] }): TUnsafe<E>;
export function str(extra?: JsonSchema): TString;
export function str(extra: JsonSchema = {}): TSchema {
  return typed({ type: 'string', ...extra });
}
export const int = (extra: JsonSchema = {}): TInteger => typed({ type: 'integer', ...extra });
export const bool = (): TBoolean => typed({ type: 'boolean' });
/** `s` or null; an enum lists null too, else a validator refuses the null the type allows. */
export const nullable = <S extends JsonSchema>(s: S): TUnion<[Typed<S>, TNull]> =>
  typed({
    ...s,
    type: [s.type as string, 'null'],
    ...(Array.isArray(s.enum) ? { enum: [...s.enum, null] } : {}),
  });
export const arr = <S extends JsonSchema>(items: S, extra: JsonSchema = {}): TArray<Typed<S>> => typed({ type: 'array', items, ...extra });
export const schemaKey = (): TString => str({ minLength: 1, maxLength: 128, pattern: SCHEMA_KEY_PATTERN });
export const factKey = (): TString => str({ minLength: 1, maxLength: 256, pattern: FACT_KEY_PATTERN });
export const idOrKey = (): TString => str({ minLength: 1, maxLength: 256 });
export const anyObject = (): TRecord<TString, TUnknown> => typed({ type: 'object' });
/** Free-form caller data (`attributes`, `context`): any object, kept as sent. */
export const freeObject = (): TRecord<TString, TUnknown> => typed({ type: 'object', additionalProperties: true });
export const timestamp = (): TString => str({ format: 'date-time' });

/** Properties named in `required` are required; the others optional. */
export type ObjectProps<P, R extends string> = {
  [K in keyof P]: K extends R ? Typed<P[K]> : TOptional<Typed<P[K]>>;
};

export function obj<P extends Record<string, JsonSchema>, R extends string = never>(
  properties: P,
  required: R[] = [],
  extra: JsonSchema = {},
): TObject<ObjectProps<P, R>> {
  return typed({ type: 'object', properties, required, additionalProperties: false, ...extra });
}

/** A map with free keys whose values follow `values`. */
export const mapOf = <S extends JsonSchema>(values: S, keys: JsonSchema = {}): TRecord<TString, Typed<S>> =>
  typed({
    type: 'object',
    additionalProperties: values,
    ...(Object.keys(keys).length ? { propertyNames: keys } : {}),
  });

/** Pages past this would overflow the skip arithmetic in Cypher. */
export const MAX_PAGE = 1_000_000;

/** Items of one bulk write (one transaction): large imports go in few round trips (the body limit is MAX_BODY_BYTES). */
export const MAX_BULK_ITEMS = 10_000;

/** The largest JSON body (a bulk of MAX_BULK_ITEMS facts is about 1-2 MiB). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export const PAGING_QUERY = {
  page: int({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
  // The upper bound is checked by `paging()` so that it answers PAGINATION_SIZE_OVERREACHED.
  per_page: int({ minimum: 1, default: 30 }),
};

export const envelope = <S extends JsonSchema>(item: S) =>
  obj({ data: arr(item), total_count: int(), page_count: int() }, ['data', 'total_count', 'page_count']);

/** A list Permit answers as a plain array, or as the envelope when asked `include_total_count=true` (docs/behaviour.md section 14). */
export const arrayOrEnvelope = <S extends JsonSchema>(item: S) =>
  typed<TUnion<[TArray<Typed<S>>, ReturnType<typeof envelope<S>>]>>({ anyOf: [arr(item), envelope(item)] });

/** One of two shapes (a list answering Permit's detailed models on `detailed=true`). */
export const either = <A extends JsonSchema, B extends JsonSchema>(a: A, b: B) => typed<TUnion<[Typed<A>, Typed<B>]>>({ anyOf: [a, b] });

/** Permit's `include_total_count`: true answers the envelope `{data, total_count, page_count}` instead of the array. */
export const INCLUDE_TOTAL_COUNT = { include_total_count: bool() };

/** The organization/project/environment fields of every record view (`scoped()` in src/auth/types.ts). */
export const SCOPED_FIELDS = { organization_id: str(), project_id: str(), environment_id: str() };

export const PROJ_ENV_PARAMS = { proj_id: idOrKey(), env_id: idOrKey() };
