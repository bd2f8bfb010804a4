import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CypherRegistry, withoutComments } from '../../src/db/cypherRegistry';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cypher-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('CypherRegistry', () => {
  it('sends statements without comments, keeping strings and quoted names that look like comments', () => {
    expect(withoutComments('// head\nMATCH (n {url: \'http://x\'}) // trailing\n/* block\n */RETURN n.`a//b`, "/*" AS s\n\n')).toBe(
      'MATCH (n {url: \'http://x\'})\nRETURN n.`a//b`, "/*" AS s',
    );
  });

  it('expands #include lines with fragments, nested, and does not offer fragments as statements', () => {
    const root = tree({
      'fragments/inner.cypher': 'WITH 1 AS one\n',
      'fragments/outer.cypher': 'MATCH (n)\n// #include fragments/inner\n',
      'a/stmt.cypher': '// header\n  // #include fragments/outer\nRETURN one\n',
    });
    const registry = new CypherRegistry(root);
    // Sent without its comments (they cost Neo4j CPU on every run) and blank lines.
    expect(registry.get('a/stmt')).toBe('MATCH (n)\nWITH 1 AS one\nRETURN one');
    expect(registry.names()).toEqual(['a/stmt']);
    expect(() => registry.get('fragments/inner')).toThrow(/no file/);
  });

  it('fails at construction on an unknown include or a cycle', () => {
    expect(() => new CypherRegistry(tree({ 'a/s.cypher': '// #include fragments/missing\n' }))).toThrow(/fragments\/missing/);
    expect(
      () =>
        new CypherRegistry(
          tree({
            'fragments/x.cypher': '// #include fragments/y\n',
            'fragments/y.cypher': '// #include fragments/x\n',
            'a/s.cypher': '// #include fragments/x\n',
          }),
        ),
    ).toThrow(/cycle/);
  });

  describe('write invalidation header', () => {
    it('fails the boot naming a writing file that has no header', () => {
      const root = tree({
        'facts/ok.cypher': 'MATCH (n {env: $env}) RETURN n\n',
        'facts/write.cypher': 'MATCH (t:Tenant {env: $env}) SET t.name = $name\n',
      });
      expect(() => new CypherRegistry(root)).toThrow(/facts\/write\.cypher writes but does not start with its invalidation header/);
    });

    it('fails on a header naming a parameter the statement lacks, and on a header on a read', () => {
      expect(() => new CypherRegistry(tree({ 'a/w.cypher': '// @invalidates $envId\nCREATE (n {env: $env})\n' }))).toThrow(
        /a\/w\.cypher declares "@invalidates \$envId" but has no parameter \$envId/,
      );
      expect(() => new CypherRegistry(tree({ 'a/r.cypher': '// @invalidates $env\nMATCH (n {env: $env}) RETURN n\n' }))).toThrow(
        /a\/r\.cypher has an @invalidates header but does not write/,
      );
    });

    it('reads the declared parameter, none, and sees writes only in code (not comments, strings or names)', () => {
      const registry = new CypherRegistry(
        tree({
          'a/byEnvId.cypher':
            "// @invalidates $envId\n// @changes none\n// the node's lock\nMATCH (n {env: $envId}) MERGE (n)-[:X]->(:Y)\n",
          'a/none.cypher': '// @invalidates none\n// @changes session:delete audit\nMATCH (s:Session {id: $id}) DETACH DELETE s\n',
          'a/read.cypher':
            "// create nothing; SET in a comment\nMATCH (n {env: $env, note: 'SET it', kind: $set}) RETURN n.created_at AS created, {delete: true} AS m\n",
          'a/viaFragment.cypher': '// @invalidates $env\n// @changes x_y:update each $items\n// #include fragments/w\nRETURN $items\n',
          'fragments/w.cypher': 'MATCH (n {env: $env}) REMOVE n._lock\n',
        }),
      );
      expect(registry.info('a/byEnvId')).toMatchObject({ writes: true, invalidates: 'envId', changes: null });
      expect(registry.info('a/none')).toMatchObject({
        writes: true,
        invalidates: null,
        changes: { kind: 'session', op: 'delete', each: null, feed: false },
      });
      expect(registry.info('a/read')).toMatchObject({ writes: false, invalidates: null, changes: null });
      expect(registry.info('a/viaFragment')).toMatchObject({
        writes: true,
        invalidates: 'env',
        changes: { kind: 'x_y', op: 'update', each: 'items', feed: true },
      });
    });

    it('fails the boot naming a writing file that does not declare what it changes, or declares it wrongly', () => {
      expect(() => new CypherRegistry(tree({ 'a/w.cypher': '// @invalidates $env\nCREATE (n {env: $env})\n' }))).toThrow(
        /a\/w\.cypher writes but its second line does not declare what it changes/,
      );
      expect(
        () => new CypherRegistry(tree({ 'a/w.cypher': '// @invalidates $env\n// @changes user:upsert\nCREATE (n {env: $env})\n' })),
      ).toThrow(/does not declare what it changes/);
      expect(
        () =>
          new CypherRegistry(tree({ 'a/w.cypher': '// @invalidates $env\n// @changes user:create each $items\nCREATE (n {env: $env})\n' })),
      ).toThrow(/declares "@changes \.\.\. each \$items" but has no parameter \$items/);
      expect(() => new CypherRegistry(tree({ 'a/r.cypher': '// @changes user:create\nMATCH (n {env: $env}) RETURN n\n' }))).toThrow(
        /a\/r\.cypher has a @changes header but does not write/,
      );
    });

    it('holds for every statement of the service: each writing file declares what it changes, as the feed and audit log name it', () => {
      const registry = new CypherRegistry(join(__dirname, '../../cypher'));
      const writes = registry.names().filter((n) => registry.info(n).writes);
      // Each declaration is read (the constructor refuses a writing file without one); `none` is null.
      const declared = Object.fromEntries(
        writes.map((n) => {
          const c = registry.info(n).changes;
          return [n, c === null ? 'none' : `${c.kind}:${c.op}${c.each ? ` each $${c.each}` : ''}${c.feed ? '' : ' audit'}`];
        }),
      );
      expect(declared).toMatchObject({
        'facts/updateUser': 'user:update',
        'facts/deleteUsers': 'user:delete',
        'assignments/assignTenantRoles': 'role_assignment:create',
        'groups/addUser': 'group_member:create',
        'schema/createDerivation': 'role_derivation:create',
        'approvals/transition': 'operation_approval:update',
        'elements/governResources': 'resource:update each $resources',
        'sessions/redeemLoginCode': 'session:create audit',
        'provisioning/rotateApiKey': 'api_key:update audit',
        'revisions/bumpRevision': 'none',
        'groups/lockGroups': 'none',
        'webhooks/enqueue': 'none',
      });
      expect(Object.values(declared).filter((d) => d !== 'none').length).toBeGreaterThan(70);
    });

    it('holds for every statement of the service: each writing file declares what it invalidates', () => {
      const registry = new CypherRegistry(join(__dirname, '../../cypher'));
      const writes = registry.names().filter((n) => registry.info(n).writes);
      expect(writes).toEqual(expect.arrayContaining(['facts/createTenant', 'sessions/createSession', 'revisions/bumpRevision']));
      expect(registry.info('sessions/createSession').invalidates).toBeNull();
      expect(registry.info('sessions/deleteSession').invalidates).toBeNull();
      expect(registry.info('facts/createTenant').invalidates).toBe('env');
    });
  });

  it('refuses a bare $now: an instant is $nowMs (epoch ms) or $nowIso (ISO 8601), never one name for both', () => {
    expect(() => new CypherRegistry(tree({ 'a/r.cypher': 'MATCH (n) WHERE n.expires_at > $now RETURN n\n' }))).toThrow(
      /a\/r\.cypher uses \$now/,
    );
    expect(
      () => new CypherRegistry(tree({ 'fragments/f.cypher': 'WITH $now AS t\n', 'a/r.cypher': '// #include fragments/f\nRETURN t\n' })),
    ).toThrow(/\$nowMs \(epoch ms\) or \$nowIso/);
    const registry = new CypherRegistry(
      tree({ 'a/r.cypher': '// against $now in a comment\nMATCH (n) WHERE n.expires_at > $nowMs AND n.at < $nowIso RETURN n\n' }),
    );
    expect(registry.get('a/r')).toContain('$nowMs');
  });

  it('holds each step of the permission rule in one fragment (fragments/rule/), not copied into statements', () => {
    const root = join(__dirname, '../../cypher');
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir).flatMap((e) => (statSync(join(dir, e)).isDirectory() ? walk(join(dir, e)) : [join(dir, e)]));
    })(root).filter((f) => f.endsWith('.cypher') && !f.includes('/migrations/'));
    const code = (f: string) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => !l.trim().startsWith('//'))
        .join('\n');
    const holders = (re: RegExp) => files.filter((f) => re.test(code(f))).map((f) => f.slice(root.length + 1));
    // Expiry: an edge grants until its expires_at (epoch ms).
    expect(holders(/(\w+)\.expires_at IS NULL OR \1\.expires_at >/)).toEqual(['fragments/rule/grantIsLive.cypher']);
    // Tenant scope: a tenant role assignment whose role gives the action.
    expect(holders(/\.role IN tenantRolesGranting/)).toEqual(['fragments/rule/tenantScopeGrant.cypher']);
    // Tenant-role hierarchy, and the walk's start (a user's direct assignments).
    expect(holders(/\[:EXTENDS\*1\.\.\]->\(ancestor:Role\)/)).toEqual(['fragments/rule/tenantRoleAncestors.cypher']);
    expect(holders(/\)-\[\w+:HAS_ROLE\]->\(assigned\)/)).toEqual(['fragments/rule/directAssignments.cypher']);
    // Each statement that decides composes the steps through the walk.
    const registry = new CypherRegistry(root);
    for (const name of [
      'decisions/allowed',
      'decisions/authorizedUsers',
      'decisions/userPermissions',
      'decisions/listObjects',
      'decisions/effectiveRoles',
    ]) {
      expect(registry.get(name)).toContain('derivation.no_direct_roles_on_object AND elementId(link.object) IN directNodes');
    }
  });
});
