import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ERROR_SCHEMA } from '../../src/http/openapi';
import type { RouteDef } from '../../src/http/routeTable';

/**
 * Checks every answer the tests receive against the schema its route declares (docs/behaviour.md
 * section 9), so a response that drifts from `/v2/openapi.json` fails the test that saw it.
 * The route is found as the router finds it: the first of the table whose method and path
 * template match; a success must have the declared status and shape, an error the error body.
 */
interface Matcher {
  route: RouteDef;
  template: string;
  pattern: RegExp;
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const errorBody = ajv.compile(ERROR_SCHEMA);

export class ResponseChecker {
  private readonly matchers: Matcher[];
  private readonly compiled = new Map<RouteDef, ValidateFunction | null>();

  constructor(routes: RouteDef[]) {
    this.matchers = routes.flatMap((route) =>
      (Array.isArray(route.path) ? route.path : [route.path]).map((template) => ({
        route,
        template,
        pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`),
      })),
    );
  }

  /** Why the answer does not match its declaration, or undefined when it does (or no route serves the path). */
  problem(method: string, url: string, status: number, body: unknown): string | undefined {
    const path = url.split('?')[0];
    const m = this.matchers.find((x) => x.route.method === method.toUpperCase() && x.pattern.test(path));
    if (!m) return undefined;
    const where = `${method} ${m.template} -> ${status}`;
    // Another specification's route (AuthZEN) answers the message alone, as text.
    if (status >= 400 && m.route.specWire) return typeof body === 'string' && body.length > 0 ? undefined : `${where}: not a text message`;
    if (status >= 400) return this.explain(where, errorBody, body);
    const declared = m.route.status ?? 200;
    if (status !== declared && status !== m.route.alsoStatus) return `${where}: the route declares ${declared}`;
    if (status === 204) return body === undefined || body === '' ? undefined : `${where}: a body on 204`;
    if (m.route.produces) return undefined; // a page or file, not JSON
    const validate = this.validatorOf(m.route);
    if (!validate) return `${where}: the route declares no response schema`;
    return this.explain(where, validate, body);
  }

  private validatorOf(route: RouteDef): ValidateFunction | null {
    if (!this.compiled.has(route)) this.compiled.set(route, route.schemas.response ? ajv.compile(route.schemas.response) : null);
    return this.compiled.get(route)!;
  }

  private explain(where: string, validate: ValidateFunction, body: unknown): string | undefined {
    if (validate(body)) return undefined;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    return `${where}: the answer does not match its declared schema: ${errors.join('; ')}; body ${JSON.stringify(body).slice(0, 600)}`;
  }
}
