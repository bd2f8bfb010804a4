import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CliError } from './api';

/** A YAML or JSON file (JSON is YAML), read as plain data; unreadable or unparsable: usage error (2). */
export function readDataFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`, 2);
  }
  try {
    return parse(text, { maxAliasCount: 100 }) ?? {};
  } catch (err) {
    throw new CliError(`${path} is not valid YAML or JSON: ${(err as Error).message}`, 2);
  }
}
