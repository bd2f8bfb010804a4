import { factKey, idOrKey, obj, str, timestamp } from '../../http/schema';

/** The login step (docs/behaviour.md section 6): `user_id`/`userId` and `tenant_id`/`tenant`. */
export const loginBody = {
  ...obj({ user_id: factKey(), userId: factKey(), tenant_id: factKey(), tenant: factKey() }),
  allOf: [
    { anyOf: [{ required: ['user_id'] }, { required: ['userId'] }] },
    { anyOf: [{ required: ['tenant_id'] }, { required: ['tenant'] }] },
  ],
};
export const loginQuery = obj({ proj_id: idOrKey(), env_id: idOrKey() });
export const loginAnswer = obj({
  redirect_url: str(),
  token: str(),
  element_bearer_token: str(),
  user_id: str(),
  tenant_id: str(),
  expires_at: timestamp(),
});
/** The one-time code of a login step's redirect_url (docs/behaviour.md section 8). */
export const codeQuery = obj({ code: str({ minLength: 1, maxLength: 512 }) }, ['code']);
export const sessionAnswer = obj({ user_id: str(), tenant_id: str(), expires_at: timestamp() });
