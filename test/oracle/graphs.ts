/**
 * Random permission graphs for the differential test: users, nested teams, folders with
 * parent folders (cycles allowed), documents in folders, and role assignments. One fixed
 * schema, expressed both for our service (resources, roles, relations, derivations, a role
 * hierarchy, a derivation with `when: {no_direct_roles_on_object}`) and for SpiceDB (the
 * reference: hierarchy as a union, the condition as an exclusion). Keys carry the graph's prefix so that many graphs share one env.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Tuple {
  subject: string;
  relation: string;
  object: string;
}
export interface Assignment {
  user: string;
  role: string;
  instance: string;
}
export interface Graph {
  index: number;
  users: string[];
  instances: string[];
  tuples: Tuple[];
  assignments: Assignment[];
  questions: { user: string; action: string; instance: string }[];
  /** Does the user hold this role on this instance (SpiceDB: the permission of the role's name)? */
  roleQuestions: { user: string; action: string; instance: string }[];
  /**
   * Edges loaded into our service with an `expires_at` that has passed when the questions are
   * asked: they must grant nothing. SpiceDB is not told them (the embedded one is asked without
   * expiring relationships), so its answers are those of the graph without them.
   */
  expired: { tuples: Tuple[]; assignments: Assignment[] };
}

export const SERVICE_SCHEMA = {
  resources: [
    { key: 'team', name: 'Team', actions: {} },
    { key: 'folder', name: 'Folder', actions: { read: {}, write: {} } },
    { key: 'doc', name: 'Document', actions: { read: {}, write: {} } },
  ],
  roles: [
    ['team', { key: 'member', name: 'Member', permissions: [] }],
    ['folder', { key: 'viewer', name: 'Viewer', permissions: ['read'] }],
    ['folder', { key: 'editor', name: 'Editor', permissions: ['read', 'write'] }],
    // Role hierarchy: a manager has no permission of its own; it extends editor.
    ['folder', { key: 'manager', name: 'Manager', permissions: [], extends: ['editor'] }],
    ['doc', { key: 'reader', name: 'Reader', permissions: ['read'] }],
    ['doc', { key: 'writer', name: 'Writer', permissions: ['read', 'write'] }],
  ] as const,
  relations: [
    ['team', { key: 'parent_team', name: 'Parent team', subject_resource: 'team' }],
    ['folder', { key: 'viewers', name: 'Viewer teams', subject_resource: 'team' }],
    ['folder', { key: 'editors', name: 'Editor teams', subject_resource: 'team' }],
    ['folder', { key: 'parent', name: 'Parent folder', subject_resource: 'folder' }],
    ['doc', { key: 'folder', name: 'Folder', subject_resource: 'folder' }],
  ] as const,
  // [resource, role, {role (on subject), on_resource, linked_by_relation}]
  derivations: [
    ['team', 'member', { role: 'member', on_resource: 'team', linked_by_relation: 'parent_team' }],
    ['folder', 'viewer', { role: 'member', on_resource: 'team', linked_by_relation: 'viewers' }],
    ['folder', 'editor', { role: 'member', on_resource: 'team', linked_by_relation: 'editors' }],
    ['folder', 'viewer', { role: 'viewer', on_resource: 'folder', linked_by_relation: 'parent' }],
    ['folder', 'editor', { role: 'editor', on_resource: 'folder', linked_by_relation: 'parent' }],
    // Permit's `when`: folder viewers read the folder's documents, except one they hold a direct role on.
    ['doc', 'reader', { role: 'viewer', on_resource: 'folder', linked_by_relation: 'folder', when: { no_direct_roles_on_object: true } }],
    ['doc', 'writer', { role: 'editor', on_resource: 'folder', linked_by_relation: 'folder' }],
  ] as const,
};

/** The same model in SpiceDB: a tuple `S:x -rel-> O:y` is the relationship `O:y#rel@S:x`. */
export const SPICEDB_SCHEMA = `definition user {}
definition team {
  relation member_direct: user
  relation parent_team: team
  permission member = member_direct + parent_team->member
}
definition folder {
  relation viewer_direct: user
  relation editor_direct: user
  relation manager_direct: user
  relation viewers: team
  relation editors: team
  relation parent: folder
  permission viewer = viewer_direct + viewers->member + parent->viewer
  permission manager = manager_direct
  permission editor = editor_direct + editors->member + parent->editor + manager
  permission read = viewer + editor
  permission write = editor
}
definition doc {
  relation reader_direct: user
  relation writer_direct: user
  relation folder: folder
  permission direct_role = reader_direct + writer_direct
  permission reader = reader_direct + (folder->viewer - direct_role)
  permission writer = writer_direct + folder->editor
  permission read = reader + writer
  permission write = writer
}`;

export const ROLES: Record<string, string[]> = { team: ['member'], folder: ['viewer', 'editor', 'manager'], doc: ['reader', 'writer'] };
/** The role hierarchy of SERVICE_SCHEMA, transitively: "<resource>#<role>" -> the roles it extends. */
export const ANCESTORS: Record<string, string[]> = { 'folder#manager': ['editor'] };

export function generateGraph(seed: number, index: number): Graph {
  const rnd = mulberry32(seed * 100_003 + index);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const p = `g${index}_`;
  const users = Array.from({ length: int(3, 7) }, (_, i) => `${p}u${i}`);
  const teams = Array.from({ length: int(2, 6) }, (_, i) => `team:${p}t${i}`);
  const folders = Array.from({ length: int(2, 6) }, (_, i) => `folder:${p}f${i}`);
  const docs = Array.from({ length: int(2, 5) }, (_, i) => `doc:${p}d${i}`);
  const tuples = new Map<string, Tuple>();
  const add = (subject: string, relation: string, object: string) => {
    if (subject !== object) tuples.set(`${subject}|${relation}|${object}`, { subject, relation, object });
  };
  // Nesting and folder parents point "forward" (a DAG). One graph in four also gets a cycle: two
  // extra teams (or folders) that point at each other, one of them pointing into the DAG. (A
  // cycle with more branches makes SpiceDB, the reference, explore exponentially before it
  // gives up; ours visits each state once whatever the shape.)
  const forward = (xs: string[]) => {
    const a = int(0, xs.length - 2);
    return [xs[a], xs[int(a + 1, xs.length - 1)]];
  };
  for (let i = 0; i < int(0, teams.length); i++) {
    const [a, b] = forward(teams);
    add(a, 'parent_team', b);
  }
  for (let i = 0; i < int(1, folders.length + 1); i++) add(pick(teams), rnd() < 0.6 ? 'viewers' : 'editors', pick(folders));
  for (let i = 0; i < int(0, folders.length); i++) {
    const [a, b] = forward(folders);
    add(a, 'parent', b);
  }
  if (rnd() < 0.25) {
    const ofTeams = rnd() < 0.5;
    const list = ofTeams ? teams : folders;
    const relation = ofTeams ? 'parent_team' : 'parent';
    const [x, y] = [`${ofTeams ? 'team' : 'folder'}:${p}c0`, `${ofTeams ? 'team' : 'folder'}:${p}c1`];
    const into = pick(list);
    add(x, relation, y);
    add(y, relation, x);
    add(y, relation, into);
    list.push(x, y);
  }
  for (const d of docs) if (rnd() < 0.8) add(pick(folders), 'folder', d);
  const assignments = new Map<string, Assignment>();
  for (const user of users) {
    for (let i = 0; i < int(0, 3); i++) {
      const instance = pick([...teams, ...teams, ...folders, ...docs]);
      const role = pick(ROLES[instance.split(':')[0]]);
      assignments.set(`${user}|${role}|${instance}`, { user, role, instance });
    }
  }
  const questions = users.flatMap((user) =>
    [...folders, ...docs].flatMap((instance) => ['read', 'write'].map((action) => ({ user, action, instance }))),
  );
  const instances = [...teams, ...folders, ...docs];
  const roleQuestions = users.flatMap((user) =>
    instances.flatMap((instance) => ROLES[instance.split(':')[0]].map((role) => ({ user, action: role, instance }))),
  );
  // Expired edges, drawn last so the graphs above stay as they were: a few extra tuples and
  // assignments (not already live ones) that would grant if they had not expired.
  const expiredTuples = new Map<string, Tuple>();
  for (let i = 0; i < int(0, 3); i++) {
    const [subject, relation, object] =
      rnd() < 0.5 ? [pick(folders), 'folder', pick(docs)] : [pick(teams), rnd() < 0.5 ? 'viewers' : 'editors', pick(folders)];
    const key = `${subject}|${relation}|${object}`;
    if (subject !== object && !tuples.has(key)) expiredTuples.set(key, { subject, relation, object });
  }
  const expiredAssignments = new Map<string, Assignment>();
  for (let i = 0; i < int(1, 4); i++) {
    const [user, instance] = [pick(users), pick([...teams, ...folders, ...docs])];
    const role = pick(ROLES[instance.split(':')[0]]);
    const key = `${user}|${role}|${instance}`;
    if (!assignments.has(key)) expiredAssignments.set(key, { user, role, instance });
  }
  return {
    index,
    users,
    instances,
    tuples: [...tuples.values()],
    assignments: [...assignments.values()],
    questions,
    roleQuestions,
    expired: { tuples: [...expiredTuples.values()], assignments: [...expiredAssignments.values()] },
  };
}
