import type { Scope } from '../../auth/types';
import type { Tx } from '../../db/db';
import { concurrentChange, duplicate, invalidInput, notFound, tenantMismatch } from '../../errors';
import type { Page } from '../../http/paging';
import { fromJson } from '../../util/json';
import { scoped } from '../../auth/types';
import { at } from '../../util/bulkItem';
import { splitRef } from './service';
import type { Static } from '../../http/schema';
import type { tuple } from './schemas';
import type { AssignmentsStore, TupleKeys, TupleRefs, TupleRow } from './store';
import { expiryOf, expiryView } from '../../util/expiry';

/** A tuple as its route schema admits it. */
export type TupleInput = Static<typeof tuple>;

/** Relationship tuples `subject -relation-> object` between resource instances. */
export class TuplesService {
  constructor(private readonly store: AssignmentsStore) {}

  /** Permit's RelationshipTupleRead (docs/behaviour.md section 14), plus `expires_at`; a tuple is never updated in place. */
  view = (scope: Scope, t: TupleRow) => ({
    id: t.id,
    subject: t.subject,
    relation: t.relation,
    object: t.object,
    tenant: t.tenant,
    subject_id: t.subject_id,
    relation_id: t.relation_id,
    object_id: t.object_id,
    tenant_id: t.tenant_id,
    ...scoped(scope),
    created_at: t.created_at ?? null,
    updated_at: t.created_at ?? null,
    ...(t.expires_at != null ? { expires_at: expiryView(t.expires_at) } : {}),
  });

  async create(scope: Scope, input: TupleInput) {
    return this.store.write(async (tx) => {
      const written = await this.createIn(tx, scope, [input]);
      if (written.created === 0) throw duplicate('Relationship tuple', `${input.subject} -${input.relation}-> ${input.object}`);
      // Read back in the same transaction, with the ids of what it names.
      const k = keysOf(input);
      const { data } = await this.store.listTuples(
        scope.envId,
        {
          subject_type: k.subject_type,
          subject_key: k.subject_key,
          relation: k.relation,
          object_type: k.object_type,
          object_key: k.object_key,
          tenant: null,
        },
        { page: 1, perPage: 1, skip: 0 },
        tx,
      );
      return this.view(scope, data[0]);
    });
  }

  /** One transaction, one round trip in the common case: all or nothing. Existing tuples are left as they are. */
  async createBulk(scope: Scope, inputs: TupleInput[]) {
    return this.store.write(async (tx) => ({ tuples_created: (await this.createIn(tx, scope, inputs, true)).created }));
  }

  async delete(scope: Scope, input: TupleInput) {
    await this.store.write(async (tx) => {
      if ((await this.store.deleteTuples(tx, scope.envId, [keysOf(input)])) === 0) {
        throw notFound('Relationship tuple', `${input.subject} -${input.relation}-> ${input.object}`);
      }
    });
  }

  async deleteBulk(scope: Scope, inputs: TupleInput[]) {
    const keys = inputs.map((input, i) => at(true, i, () => keysOf(input)));
    return this.store.write(async (tx) => ({ tuples_removed: await this.store.deleteTuples(tx, scope.envId, keys) }));
  }

  /** Permit's filters; `subject_type` / `object_type` narrow to instances of a type (with `subject` / `object`, both must hold). */
  async list(
    scope: Scope,
    f: {
      subject?: string;
      relation?: string;
      object?: string;
      tenant?: string;
      subject_type?: string;
      object_type?: string;
    },
    page: Page,
  ) {
    return (await this.rows(f, scope, page)).map((t) => this.view(scope, t));
  }

  /** `detailed=true`: Permit's RelationshipTupleDetailedRead, the subject, relation and object records read in one more query per page. */
  async listDetailed(scope: Scope, f: Parameters<TuplesService['list']>[1], page: Page) {
    const rows = await this.rows(f, scope, page);
    const records = await this.store.recordsByIds(
      scope.envId,
      rows.flatMap((t) => [t.subject_id, t.object_id, t.relation_id]),
    );
    const block = (ref: string, id: string | null, tenant: string | null) => {
      const r = records.get(id ?? '');
      const { type, key } = splitRef(ref, '/subject');
      return { key, tenant: r?.tenant ?? tenant ?? '', resource: type, attributes: fromJson(r?.attributes_json) };
    };
    return rows.map((t) => {
      const rel = records.get(t.relation_id ?? '');
      return {
        ...this.view(scope, t),
        subject_details: block(t.subject, t.subject_id, t.tenant),
        relation_details: { key: t.relation, name: rel?.name ?? t.relation, description: rel?.description ?? null },
        object_details: block(t.object, t.object_id, t.tenant),
      };
    });
  }

  private async rows(f: Parameters<TuplesService['list']>[1], scope: Scope, page: Page): Promise<TupleRow[]> {
    const s = f.subject ? splitRef(f.subject, '/query/subject') : null;
    const o = f.object ? splitRef(f.object, '/query/object') : null;
    if ((s && f.subject_type !== undefined && s.type !== f.subject_type) || (o && f.object_type !== undefined && o.type !== f.object_type))
      return [];
    const { data } = await this.store.listTuples(
      scope.envId,
      {
        subject_type: s?.type ?? f.subject_type ?? null,
        subject_key: s?.key ?? null,
        relation: f.relation ?? null,
        object_type: o?.type ?? f.object_type ?? null,
        object_key: o?.key ?? null,
        tenant: f.tenant ?? null,
      },
      page,
    );
    // A plain array, as Permit answers (docs/behaviour.md section 14).
    return data;
  }

  /**
   * Writes every item in one pass, the statement checking each as it writes. Only when an item
   * did not hold (an instance to make implicitly, or a broken rule) does it check each item
   * against the graph: it throws the domain's error for the first failing item (the transaction
   * rolls back), or makes the missing instances and writes the batch again (repeats are kept out).
   */
  private async createIn(tx: Tx, scope: Scope, inputs: TupleInput[], bulk = false) {
    const keys = inputs.map((input, i) => at(bulk, i, () => keysOf(input)));
    const now = new Date().toISOString();
    const first = await this.store.createTuples(tx, scope.envId, keys, now);
    if (first.written === keys.length) return first;
    const found = await this.store.resolveTuples(tx, scope.envId, keys);
    // Instances created implicitly by earlier items of the batch, with their tenant.
    const implicit = new Map<string, string>();
    const checked = inputs.map((input, i) => at(bulk, i, () => checkTuple(input, keys[i], found[i], implicit)));
    const missing = [...implicit]
      .map(([ref, tenant]) => ({ ...splitRef(ref, '/body'), tenant }))
      .map((r) => ({ resource: r.type, key: r.key, tenant: r.tenant }));
    await this.store.createImplicitInstances(tx, scope.envId, missing, now);
    const second = await this.store.createTuples(tx, scope.envId, checked, now);
    if (second.written < checked.length) throw concurrentChange();
    return { ...second, created: first.created + second.created };
  }
}

/** The domain's rules for one tuple, given what the graph holds; answers the keys to write. */
function checkTuple(input: TupleInput, keys: TupleKeys, refs: TupleRefs, implicit: Map<string, string>): TupleKeys & { tenant: string } {
  if (!refs.subjectTypeExists) throw notFound('Resource', keys.subject_type);
  if (!refs.objectTypeExists) throw notFound('Resource', keys.object_type);
  if (!refs.relationExists || refs.relationSubject !== keys.subject_type) {
    const why = refs.relationExists
      ? `relation ${JSON.stringify(keys.relation)} of ${JSON.stringify(keys.object_type)} has subject ${JSON.stringify(refs.relationSubject)}, not ${JSON.stringify(keys.subject_type)}`
      : `resource ${JSON.stringify(keys.object_type)} has no relation ${JSON.stringify(keys.relation)}`;
    throw invalidInput(`The tuple does not fit the schema: ${why}.`, [{ path: '/body/relation', message: why }]);
  }
  if (keys.tenant && !refs.tenantExists) throw notFound('Tenant', keys.tenant);
  const subjectTenant = refs.subjectExists ? refs.subjectTenant : (implicit.get(input.subject) ?? null);
  const objectTenant = refs.objectExists ? refs.objectTenant : (implicit.get(input.object) ?? null);
  if (subjectTenant === null && !keys.tenant) throw notFound('Resource instance', input.subject);
  if (objectTenant === null && !keys.tenant) throw notFound('Resource instance', input.object);
  const tenant = (keys.tenant ?? subjectTenant)!;
  for (const [ref, owner] of [
    [input.subject, subjectTenant],
    [input.object, objectTenant],
  ] as const) {
    if (owner !== null && owner !== tenant) {
      throw tenantMismatch(
        `Resource instance ${JSON.stringify(ref)} belongs to tenant ${JSON.stringify(owner)}, not ${JSON.stringify(tenant)}.`,
      );
    }
    if (owner === null) implicit.set(ref, tenant);
  }
  return { ...keys, tenant };
}

function keysOf(input: TupleInput): TupleKeys {
  const s = splitRef(input.subject, '/body/subject');
  const o = splitRef(input.object, '/body/object');
  return {
    subject_type: s.type,
    subject_key: s.key,
    relation: input.relation,
    object_type: o.type,
    object_key: o.key,
    tenant: input.tenant ?? null,
    expires_at: expiryOf(input.expires_at, '/body/expires_at'),
  };
}
