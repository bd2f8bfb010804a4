import { anyObject, arr, bool, factKey, idOrKey, int, obj, PROJ_ENV_PARAMS, schemaKey, str } from '../../http/schema';

/** The writes an impact preview takes (docs/console.md#impact-preview), each the body of its public route. */
export const IMPACT_OPS = [
  'unassign_role',
  'assign_role',
  'remove_member',
  'add_member',
  'remove_parent',
  'revoke_group_role',
  'delete_group',
  'delete_user',
  'delete_instance',
  'set_user_attributes',
  'set_instance_attributes',
] as const;

const instanceRef = () => str({ minLength: 3, maxLength: 400, pattern: '^[A-Za-z0-9_\\-]+:[^\\u0000-\\u001f\\u007f]+$' });

/** One intended write: `op` and the fields its route takes (which are required depends on `op`). */
export const intendedWrite = obj(
  {
    op: str({ enum: IMPACT_OPS }),
    user: factKey(),
    role: schemaKey(),
    tenant: idOrKey(),
    resource_instance: instanceRef(),
    expires_at: str({ maxLength: 64 }),
    group: idOrKey(),
    parent: idOrKey(),
    resource: schemaKey(),
    key: factKey(),
    attributes: anyObject(),
  },
  ['op'],
);

export const params = PROJ_ENV_PARAMS;
export const previewBody = obj(
  {
    writes: arr(intendedWrite, { minItems: 1, maxItems: 100 }),
    /** How long the preview may take (ms); past it the answer is cut, with what was found so far. */
    deadline_ms: int({ minimum: 100, maximum: 60_000 }),
    /** How many lost accesses the answer lists (`count` counts them all). */
    limit: int({ minimum: 0, maximum: 10_000 }),
  },
  ['writes'],
);

export const lostAccess = obj({ user: str(), action: str(), object: str(), tenant: str() }, ['user', 'action', 'object', 'tenant']);
export const preview = obj(
  {
    lost: arr(lostAccess),
    count: int(),
    cut: bool(),
    users_checked: int(),
    objects_checked: int(),
  },
  ['lost', 'count', 'cut', 'users_checked', 'objects_checked'],
);
