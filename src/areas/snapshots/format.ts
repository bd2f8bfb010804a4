import neo4j from 'neo4j-driver';
import { badRequest } from '../../errors';
import { storedRulesOf } from '../urlMapping/match';

/**
 * The export format (docs/behaviour.md section 16): JSON lines (application/x-ndjson), one object a line.
 *
 * 1. `{"type":"header","format":"graph-authz-export","version":1,"revision":R,"project":{...},"environment":{...},"exported_at":...}`
 * 2. `{"type":"node","kind":"user","labels":["User"],"props":{"id":...,"key":...}}`, one per record:
 *    schema (resources, resource roles, relations, derivations, tenant roles, action groups, managed ones
 *    included), tenants, users, instances and groups, elements configs, approvals and access requests,
 *    condition sets and set rules, proxy configs (their URL-mapping rules, never their secret) and
 *    user invites.
 * 3. `{"type":"relationship","rel":"HAS_ROLE","from":ID,"to":ID,"props":{...}}`, one per link
 *    between two of those records (by their ids): role assignments (with `expires_at`), tuples,
 *    group memberships and nesting, tenant membership, the schema's own links, an approval's links.
 * 4. `{"type":"end","revision":R,"nodes":N,"relationships":M}`: the stream is whole. A stream
 *    without it (cut off) is refused by an import; an export whose environment changed while it
 *    was read ends with `{"type":"error",...}` instead, and is refused too.
 *
 * Never in it: keys, sessions, login codes, webhook deliveries, change and audit events, an
 * elements config's webhook secret and bearer token.
 */
export const EXPORT_FORMAT = 'graph-authz-export';
export const EXPORT_VERSION = 1;

/** The labels of the records an export holds, by kind (the first label of each is its kind's). */
const KIND_OF_LABEL: Record<string, string> = {
  Resource: 'resource',
  ResourceRole: 'resource_role',
  Relation: 'relation',
  Derivation: 'derivation',
  Role: 'role',
  ActionGroup: 'action_group',
  Tenant: 'tenant',
  User: 'user',
  Instance: 'resource_instance',
  ElementsConfig: 'elements_config',
  OperationApproval: 'operation_approval',
  ConditionSet: 'condition_set',
  SetRule: 'set_rule',
  ProxyConfig: 'proxy_config',
  UserInvite: 'user_invite',
};
/** Labels a record may carry besides its kind's (a group is an instance too). */
const EXTRA_LABELS = new Set(['Group']);
/** The link types an export holds (cypher/export/relationships.cypher). */
export const RELATIONSHIP_TYPES = new Set([
  'HAS_ROLE',
  'HAS_TENANT_ROLE',
  'IN_TENANT',
  'RELATED',
  'GROUPS',
  'EXTENDS',
  'HAS_RELATION',
  'SUBJECT',
  'DERIVES',
  'OF_CONFIG',
  'REQUESTED_BY',
  'ON_INSTANCE',
  'REVIEWED_BY',
  'OF_RESOURCE',
  'NARROWS',
  'USER_SET',
  'RESOURCE_SET',
]);
/** The properties a link may have (cypher/import/createRelationships.cypher sets each by name). */
export const RELATIONSHIP_PROPS = new Set(['id', 'role', 'tenant', 'relation', 'created_at', 'updated_at', 'expires_at']);
/** Properties an import never takes from a stream: the environment (the import's own), internal state, secrets. */
const DROPPED_PROPS = new Set(['env', '_lock', 'webhook_secret', 'webhook_bearer_token', 'webhook_seq', 'import_id']);

/** The kind of a record by its labels (`group` for a group instance, an approval's own `type`). */
export function kindOf(labels: string[], props: Record<string, unknown>): string {
  if (labels.includes('Group')) return 'group';
  if (labels.includes('OperationApproval') && typeof props.type === 'string') return props.type;
  for (const l of labels) if (KIND_OF_LABEL[l]) return KIND_OF_LABEL[l];
  return 'record';
}

/** A record's properties as a line carries them: no nulls (a property Neo4j does not hold). */
export function plainProps(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

export interface NodeRow {
  labels: string[];
  props: Record<string, unknown>;
}
export interface RelationshipRow {
  type: string;
  from: string;
  to: string;
  props: Record<string, unknown>;
}
export type Line =
  | { type: 'header'; format: string; version: number; revision?: number }
  | { type: 'node'; row: NodeRow }
  | { type: 'relationship'; row: RelationshipRow }
  | { type: 'end'; nodes: number; relationships: number };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * A property value as Neo4j stores it: whole numbers as integers (the driver would send floats),
 * lists of one scalar type. Anything else (objects, mixed lists) is refused.
 */
function storedValue(v: unknown, where: string): unknown {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw badRequest(`${where}: a number must be finite.`);
    return Number.isInteger(v) ? neo4j.int(v) : v;
  }
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) {
    if (!v.every(isScalar) || new Set(v.map((x) => typeof x)).size > 1) throw badRequest(`${where}: a list holds values of one type.`);
    return v.map((x) => storedValue(x, where));
  }
  throw badRequest(`${where}: a property is a string, number, boolean or a list of them.`);
}

function storedProps(props: unknown, where: string): Record<string, unknown> {
  if (!isObject(props)) throw badRequest(`${where}: "props" must be an object.`);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) {
    if (DROPPED_PROPS.has(k) || v === null || v === undefined) continue;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw badRequest(`${where}: "${k}" is not a property name.`);
    out[k] = storedValue(v, `${where}, property "${k}"`);
  }
  return out;
}

/** One line of an import, checked: a 400 naming the line when it is not one of the format's. */
export function parseLine(text: string, lineNo: number): Line {
  const where = `line ${lineNo}`;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw badRequest(`${where} is not JSON.`);
  }
  if (!isObject(v)) throw badRequest(`${where} is not a JSON object.`);
  switch (v.type) {
    case 'header':
      if (v.format !== EXPORT_FORMAT) throw badRequest(`${where}: the header's format must be "${EXPORT_FORMAT}".`);
      if (v.version !== EXPORT_VERSION)
        throw badRequest(`${where}: format version ${String(v.version)} is not ${EXPORT_VERSION}, the one this service reads.`);
      return { type: 'header', format: v.format, version: v.version };
    case 'node': {
      const labels = v.labels;
      if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string'))
        throw badRequest(`${where}: "labels" must be a list of strings.`);
      const kinds = labels.filter((l) => KIND_OF_LABEL[l]);
      const unknown = labels.filter((l) => !KIND_OF_LABEL[l] && !EXTRA_LABELS.has(l));
      if (kinds.length !== 1 || unknown.length)
        throw badRequest(`${where}: labels ${JSON.stringify(labels)} are not those of an exported record.`);
      if (labels.includes('Group') && !labels.includes('Instance')) throw badRequest(`${where}: a group is an Instance.`);
      const props = storedProps(v.props, where);
      if (typeof props.id !== 'string' || !props.id) throw badRequest(`${where}: a record needs its "id".`);
      if (labels.includes('ProxyConfig')) {
        // /allowed_url applies these rules: they are checked as the API checks them.
        const rules = storedRulesOf(props.mapping_rules_json ?? '[]');
        if (typeof rules === 'string') throw badRequest(`${where}: a proxy config's ${rules}.`);
        props.mapping_rules_json = JSON.stringify(rules);
      }
      return { type: 'node', row: { labels: [...new Set([...labels, 'InEnv'])], props } };
    }
    case 'relationship': {
      if (typeof v.rel !== 'string' || !RELATIONSHIP_TYPES.has(v.rel))
        throw badRequest(`${where}: "rel" must be one of ${[...RELATIONSHIP_TYPES].join(', ')}.`);
      if (typeof v.from !== 'string' || typeof v.to !== 'string') throw badRequest(`${where}: "from" and "to" must be record ids.`);
      const props = storedProps(v.props ?? {}, where);
      const other = Object.keys(props).filter((k) => !RELATIONSHIP_PROPS.has(k));
      if (other.length) throw badRequest(`${where}: a link has no property ${other.map((k) => JSON.stringify(k)).join(', ')}.`);
      return { type: 'relationship', row: { type: v.rel, from: v.from, to: v.to, props } };
    }
    case 'end':
      if (!Number.isInteger(v.nodes) || !Number.isInteger(v.relationships))
        throw badRequest(`${where}: the end line counts "nodes" and "relationships".`);
      return { type: 'end', nodes: v.nodes as number, relationships: v.relationships as number };
    case 'error':
      throw badRequest(`${where}: the export failed (${String(v.message ?? 'no reason')}); export again.`);
    default:
      throw badRequest(`${where}: "type" must be header, node, relationship or end.`);
  }
}
