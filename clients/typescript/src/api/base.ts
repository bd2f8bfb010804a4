import type { Http } from '../http.js';

/** A collection under `/v2/<area>/{project}/{env}`. */
abstract class ScopedPart {
  protected abstract readonly area: string;
  constructor(protected readonly http: Http) {}
  protected async at(rest: string): Promise<string> {
    return (await this.http.base(this.area)) + rest;
  }
}

/** Under `/v2/schema/{project}/{env}`. */
export abstract class SchemaPart extends ScopedPart {
  protected readonly area = 'schema';
}

/** Under `/v2/facts/{project}/{env}`. */
export abstract class FactsPart extends ScopedPart {
  protected readonly area = 'facts';
}
