// A throwaway PostgreSQL cluster for the peers: Debian's package (installed with apt-get when
// missing), a fresh data directory under the OS temp dir, default settings, TCP on 127.0.0.1.
// As root the server runs as the `postgres` user (PostgreSQL refuses root).
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

function binDir() {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length ? join(base, versions[0], 'bin') : undefined;
}

function ensureInstalled(log) {
  if (binDir()) return binDir();
  if (userInfo().uid !== 0) throw new Error('PostgreSQL is not installed: run `sudo apt-get install -y postgresql`');
  log('installing PostgreSQL (apt-get install -y postgresql)...');
  execFileSync('apt-get', ['update'], { stdio: 'ignore' });
  execFileSync('apt-get', ['install', '-y', 'postgresql'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const dir = binDir();
  if (!dir) throw new Error('apt-get install postgresql left no /usr/lib/postgresql/<v>/bin/pg_ctl');
  return dir;
}

/** Starts a cluster on `port`; answers its version, a connection URI maker, the postmaster pid and stop(). */
export async function startPostgres({ port, log = console.log }) {
  const bin = ensureInstalled(log);
  const dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    );
  const run = (cmd, args) => {
    const full = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    const r = spawnSync(full[0], full[1], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
    return r.stdout;
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  const version = run('postgres', ['--version']).trim();
  for (const db of ['spicedb', 'openfga'])
    run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', `CREATE DATABASE ${db}`]);
  const pid = Number(run('pg_ctl', ['-D', data, 'status']).match(/PID: (\d+)/)?.[1]);
  return {
    version,
    pid,
    uri: (db) => `postgres://postgres@127.0.0.1:${port}/${db}?sslmode=disable`,
    stop: async () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
