import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** A line `// #include fragments/<name>` is replaced by the text of `cypher/fragments/<name>.cypher`. */
const INCLUDE = /^[ \t]*\/\/[ \t]*#include[ \t]+(\S+)[ \t]*$/gm;
const FRAGMENTS = 'fragments/';

/**
 * Every Cypher statement lives in a file under cypher/, named by its path without the
 * extension (`tenants/createTenant`). Files are read once at boot; asking for a name that
 * has no file throws, so a missing statement fails the boot, not a request.
 *
 * Files under `cypher/fragments/` are not statements: they are pieces that statements compose
 * with `// #include fragments/<name>` lines, so a rule shared by several statements is written
 * once. Includes are expanded at boot (nested includes too); an unknown or circular include
 * fails the boot.
 */
export class CypherRegistry {
  private readonly statements = new Map<string, string>();
  private readonly fragments = new Map<string, string>();

  constructor(readonly root: string) {
    const raw = new Map<string, string>();
    for (const file of walk(root)) {
      if (!file.endsWith('.cypher') || file.includes(`${sep}migrations${sep}`)) continue;
      const name = relative(root, file).slice(0, -'.cypher'.length).split(sep).join('/');
      raw.set(name, readFileSync(file, 'utf8'));
    }
    for (const [name, text] of raw) if (name.startsWith(FRAGMENTS)) this.fragments.set(name, text);
    for (const [name, text] of raw) {
      if (!name.startsWith(FRAGMENTS)) this.statements.set(name, this.expand(name, text, [name]));
    }
  }

  get(name: string): string {
    const text = this.statements.get(name);
    if (text === undefined) throw new Error(`Cypher statement "${name}" has no file ${name}.cypher under ${this.root}`);
    return text;
  }

  names(): string[] {
    return [...this.statements.keys()].sort();
  }

  private expand(name: string, text: string, chain: string[]): string {
    return text.replace(INCLUDE, (_line, ref: string) => {
      const fragment = this.fragments.get(ref);
      if (fragment === undefined) throw new Error(`Cypher "${name}" includes "${ref}", which has no file ${ref}.cypher under ${this.root}`);
      if (chain.includes(ref)) throw new Error(`Cypher include cycle: ${[...chain, ref].join(' -> ')}`);
      return this.expand(ref, fragment, [...chain, ref]).replace(/\n+$/, '');
    });
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
