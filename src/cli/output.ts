/** What people read: a plan as one line per change, Terraform-like signs, and a summary line. */
interface PlanChange {
  op: 'create' | 'update' | 'delete';
  kind: string;
  key: string;
  fields?: string[];
  in_use?: { facts: number; what: string };
}
const SIGN = { create: '+', update: '~', delete: '-' } as const;
const KIND: Record<string, string> = {
  resource: 'resource',
  action: 'action',
  action_group: 'action group',
  relation: 'relation',
  resource_role: 'role',
  role: 'tenant role',
  derivation: 'derivation',
  elements_config: 'elements config',
  proxy_config: 'proxy config',
};

export function printPlan(
  plan: { changed: boolean; applied: boolean; changes: PlanChange[] },
  out: (line: string) => void,
  applying: boolean,
): void {
  if (!plan.changed) {
    out("No changes: the environment's schema equals the file.");
    return;
  }
  for (const c of plan.changes) {
    const fields = c.fields?.length ? ` (${c.fields.join(', ')})` : '';
    const used = c.in_use ? `  [used by ${c.in_use.facts} ${c.in_use.what}: removed with it only by --prune]` : '';
    out(`${SIGN[c.op]} ${KIND[c.kind] ?? c.kind} ${c.key}${fields}${used}`);
  }
  const n = (op: PlanChange['op']) => plan.changes.filter((c) => c.op === op).length;
  out(
    applying && plan.applied
      ? `Applied: ${n('create')} created, ${n('update')} updated, ${n('delete')} deleted.`
      : `Plan: ${n('create')} to create, ${n('update')} to update, ${n('delete')} to delete.`,
  );
}
