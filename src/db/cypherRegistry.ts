import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Every Cypher statement lives in a file under cypher/, named by its path without the
 * extension (`tenants/createTenant`). Files are read once at boot; asking for a name that
 * has no file throws, so a missing statement fails the boot, not a request.
 */
export class CypherRegistry {
  private readonly statements = new Map<string, string>();

  constructor(readonly root: string) {
    for (const file of walk(root)) {
      if (!file.endsWith('.cypher') || file.includes(`${sep}migrations${sep}`)) continue;
      const name = relative(root, file).slice(0, -'.cypher'.length).split(sep).join('/');
      this.statements.set(name, readFileSync(file, 'utf8'));
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
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
