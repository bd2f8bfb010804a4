import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';

export interface GraphNode {
  id: string;
  labels: string[];
  key: string;
  resource: string | null;
  tenant: string | null;
}
export interface GraphEdge {
  id: string;
  type: string;
  from: string;
  to: string;
  role: string | null;
  relation: string | null;
}
export interface Neighbourhood {
  nodes: GraphNode[];
  edges: GraphEdge[];
  truncated: boolean;
  limit: number;
}

/** How a node is named in paths and `focus`: `user:alice`, `group:eng`, `repo:api`, `tenant:default`. */
export function refOf(n: GraphNode): string {
  if (n.labels.includes('User')) return `user:${n.key}`;
  if (n.labels.includes('Tenant')) return `tenant:${n.key}`;
  return `${n.resource ?? 'instance'}:${n.key}`;
}

export function kindOf(n: GraphNode): 'user' | 'group' | 'instance' | 'tenant' {
  if (n.labels.includes('User')) return 'user';
  if (n.labels.includes('Tenant')) return 'tenant';
  return n.labels.includes('Group') ? 'group' : 'instance';
}

function edgeKind(e: GraphEdge): string {
  if (e.type === 'HAS_ROLE') return e.role === 'member' ? 'member' : 'role';
  return ({ RELATED: 'related', GROUPS: 'groups', HAS_TENANT_ROLE: 'tenant' } as Record<string, string>)[e.type] ?? 'related';
}

/** One step of an explanation path: `a -label-> b`. */
export interface PathStep {
  from: string;
  label: string;
  to: string;
}

/** `user:alice -member-> group:eng -group-> repo:api#editor` -> its steps (the `#role` is the role held at the end). */
export function parsePath(path: string): PathStep[] {
  const parts = path.split(/ -([^ ]+)-> /);
  const steps: PathStep[] = [];
  const node = (s: string) => s.replace(/#[^#]*$/, '');
  for (let i = 0; i + 2 < parts.length; i += 2) steps.push({ from: node(parts[i]), label: parts[i + 1], to: node(parts[i + 2]) });
  return steps;
}

const STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      'font-size': 10,
      'min-zoomed-font-size': 7,
      width: 18,
      height: 18,
      'text-valign': 'bottom',
      'text-margin-y': 3,
      color: '#222',
    },
  },
  { selector: 'node[label]', style: { label: 'data(label)' } },
  { selector: 'node.user', style: { 'background-color': '#2f6fdf', shape: 'ellipse' } },
  { selector: 'node.group', style: { 'background-color': '#1b9e5a', shape: 'round-rectangle', width: 24 } },
  { selector: 'node.instance', style: { 'background-color': '#e08a1e', shape: 'diamond' } },
  { selector: 'node.tenant', style: { 'background-color': '#8a4fd0', shape: 'hexagon' } },
  { selector: 'node.focus', style: { 'border-width': 3, 'border-color': '#111' } },
  { selector: 'edge', style: { width: 1.5, 'curve-style': 'haystack', 'line-color': '#999', 'font-size': 8, 'min-zoomed-font-size': 9 } },
  { selector: 'edge[label]', style: { label: 'data(label)' } },
  { selector: 'edge.member', style: { 'line-color': '#1b9e5a' } },
  { selector: 'edge.role', style: { 'line-color': '#2f6fdf' } },
  { selector: 'edge.related', style: { 'line-color': '#e08a1e', 'line-style': 'dashed' } },
  { selector: 'edge.groups', style: { 'line-color': '#8a8a2a', 'line-style': 'dotted' } },
  { selector: 'edge.tenant', style: { 'line-color': '#8a4fd0' } },
  { selector: '.faded', style: { opacity: 0.15 } },
  { selector: 'node.path', style: { 'border-width': 4, 'border-color': '#e0245e', opacity: 1 } },
  {
    selector: 'edge.path',
    style: {
      width: 4,
      'line-color': '#e0245e',
      'curve-style': 'straight',
      'target-arrow-shape': 'triangle',
      'target-arrow-color': '#e0245e',
      opacity: 1,
      'z-index': 10,
    },
  },
];

/**
 * The neighbourhood view: rings by hop distance from the focus (ringPositions), or, for a group,
 * its tree in layers (layeredGraphPositions); labels on demand in big graphs, edges hidden and the canvas reused as a texture while panning and zooming.
 */
export class GraphView {
  private cy: Core;
  private byRef = new Map<string, string>();
  private labelled = true;
  onSelect: (ref: string, kind: string) => void = () => {};

  constructor(private readonly container: HTMLElement) {
    this.cy = cytoscape({
      container,
      style: STYLE,
      wheelSensitivity: 0.3,
      minZoom: 0.05,
      maxZoom: 4,
      hideEdgesOnViewport: true,
      textureOnViewport: true,
      pixelRatio: 1,
    });
    this.cy.on('tap', 'node', (ev) => this.onSelect(ev.target.data('ref'), ev.target.data('kind')));
    this.cy.on('mouseover', 'node', (ev) => {
      if (!ev.target.data('label')) ev.target.data('label', ev.target.data('ref')).addClass('hovered');
    });
    this.cy.on('mouseout', 'node.hovered', (ev) => {
      ev.target.removeClass('hovered').removeData('label');
    });
  }

  /** Draws the answer of `GET /v2/graph/...`; resolves when the first frame has been painted. */
  show(g: Neighbourhood, focusRef: string | null): Promise<void> {
    this.byRef.clear();
    // Labels cost the most at this size (measured: bench/console-render.mjs): a big graph
    // labels its focus and shows other labels on hover, a path, or a tap.
    this.labelled = g.nodes.length <= LABEL_ALL_BELOW;
    const focus = focusRef ? g.nodes.find((n) => refOf(n) === focusRef) : undefined;
    const focusId = focus?.id;
    // A group's neighbourhood is its tree (members, nested groups, what they are granted): drawn in
    // layers, every edge pointing right; any other focus in rings by distance.
    const tree = focus !== undefined && kindOf(focus) === 'group';
    const position = tree ? layeredGraphPositions(g) : ringPositions(g, this.distances(g, focusId));
    this.container.dataset.layout = tree ? 'layers' : 'rings';
    this.container.dataset.edgesRight = String(
      g.edges.filter((e) => e.from !== e.to && (position.get(e.from)?.x ?? 0) < (position.get(e.to)?.x ?? 0)).length,
    );
    this.container.dataset.edges = String(g.edges.filter((e) => e.from !== e.to).length);
    const elements: ElementDefinition[] = [];
    for (const n of g.nodes) {
      const ref = refOf(n);
      this.byRef.set(ref, n.id);
      const kind = kindOf(n);
      const label = this.labelled || n.id === focusId ? ref : undefined;
      elements.push({
        group: 'nodes',
        data: { id: n.id, ref, kind, label },
        classes: kind + (n.id === focusId ? ' focus' : ''),
        position: position.get(n.id),
      });
    }
    for (const e of g.edges) {
      const label = this.labelled ? (e.role ?? e.relation ?? undefined) : undefined;
      elements.push({
        group: 'edges',
        data: { id: e.id, source: e.from, target: e.to, name: e.role ?? e.relation ?? e.type, label },
        classes: edgeKind(e),
      });
    }
    this.cy.batch(() => {
      this.cy.elements().remove();
      this.cy.add(elements);
    });
    return new Promise((done) => {
      this.cy.one('render', () => done());
      this.fit();
    });
  }

  private distances(g: Neighbourhood, focusId: string | undefined): Map<string, number> {
    const dist = new Map<string, number>();
    if (!focusId) return dist;
    const adj = new Map<string, string[]>();
    for (const e of g.edges) {
      adj.set(e.from, [...(adj.get(e.from) ?? []), e.to]);
      adj.set(e.to, [...(adj.get(e.to) ?? []), e.from]);
    }
    dist.set(focusId, 0);
    const queue = [focusId];
    while (queue.length) {
      const at = queue.shift()!;
      for (const m of adj.get(at) ?? [])
        if (!dist.has(m)) {
          dist.set(m, dist.get(at)! + 1);
          queue.push(m);
        }
    }
    return dist;
  }

  /**
   * Highlights each step of the paths; a node or edge of a path the neighbourhood did not reach
   * is added, so a granting path is always drawn whole. Returns what is highlighted on the canvas.
   */
  highlight(paths: string[]): { nodes: string[]; edges: string[] } {
    const cy = this.cy;
    cy.elements().removeClass('path').removeClass('faded');
    if (!paths.length) return { nodes: [], edges: [] };
    const ensureNode = (ref: string) => {
      let id = this.byRef.get(ref);
      if (!id) {
        id = `path:${ref}`;
        this.byRef.set(ref, id);
        const kind = ref.startsWith('user:') ? 'user' : ref.startsWith('group:') ? 'group' : 'instance';
        const near = cy.nodes().boundingBox();
        cy.add({
          group: 'nodes',
          data: { id, ref, kind, label: ref },
          classes: kind,
          position: { x: near.x2 + 60, y: near.y1 + 40 * cy.nodes('[id ^= "path:"]').length },
        });
      }
      return cy.getElementById(id);
    };
    for (const path of paths) {
      for (const step of parsePath(path)) {
        const a = ensureNode(step.from);
        const b = ensureNode(step.to);
        const between = a.edgesWith(b);
        const labelled = between.filter((e) => (e.data('label') ?? '') === step.label);
        const edge = !labelled.empty()
          ? labelled
          : !between.empty()
            ? between
            : cy.add({ group: 'edges', data: { id: `path:${step.from}>${step.to}`, source: a.id(), target: b.id(), label: step.label } });
        a.addClass('path').data('label', step.from);
        b.addClass('path').data('label', step.to);
        edge.addClass('path').data('label', step.label);
      }
    }
    cy.elements().not('.path').addClass('faded');
    this.layerPaths(paths);
    this.fit(cy.$('.path'), 60);
    return {
      nodes: cy.nodes('.path').map((n) => n.data('ref') as string),
      edges: cy.edges('.path').map((e) => `${e.source().data('ref')} -${e.data('name') ?? e.data('label')}-> ${e.target().data('ref')}`),
    };
  }

  /**
   * The granting paths drawn in layers, left to right (layeredPositions), beside the faded
   * neighbourhood: each hop one column further, so a long path reads in one direction without
   * crossings. Answers the path nodes' refs from left to right (the browser test reads them).
   */
  layerPaths(paths: string[]): string[] {
    const cy = this.cy;
    const rest = cy.nodes().not('.path');
    const box = rest.empty() ? { x2: 0, y1: 0 } : rest.boundingBox();
    const at = layeredPositions(paths.map((p) => parsePath(p)));
    cy.batch(() => {
      for (const [ref, pos] of at) {
        const id = this.byRef.get(ref);
        if (id) cy.getElementById(id).position({ x: box.x2 + 120 + pos.x, y: box.y1 + pos.y });
      }
    });
    const order = [...at].sort((a, b) => a[1].x - b[1].x || a[1].y - b[1].y).map(([ref]) => ref);
    this.container.dataset.pathOrder = order.join(' ');
    return order;
  }

  /** Fits the graph, but a small one is not blown up past a readable size. */
  fit(eles?: cytoscape.CollectionArgument, padding = 30): void {
    this.cy.fit(eles, padding);
    if (this.cy.zoom() > MAX_FIT_ZOOM)
      this.cy.zoom({ level: MAX_FIT_ZOOM, renderedPosition: { x: this.container.clientWidth / 2, y: this.container.clientHeight / 2 } });
  }
}

/** Above this many nodes only the focus, the hovered node and path nodes carry a label. */
const LABEL_ALL_BELOW = 150;
const MAX_FIT_ZOOM = 1.3;
const SPACING = 34;

/**
 * Rings by hop distance from the focus (unreached nodes on the outermost ring); a crowded ring
 * spills onto wider rings. Linear time and no label measuring, unlike the stock layouts.
 */
export function ringPositions(g: Neighbourhood, dist: Map<string, number>): Map<string, { x: number; y: number }> {
  const levels = new Map<number, string[]>();
  const far = Math.max(0, ...dist.values()) + 1;
  for (const n of g.nodes) {
    const d = dist.get(n.id) ?? (dist.size ? far : 1);
    levels.set(d, [...(levels.get(d) ?? []), n.id]);
  }
  const out = new Map<string, { x: number; y: number }>();
  let radius = 0;
  for (const d of [...levels.keys()].sort((a, b) => a - b)) {
    const ids = levels.get(d)!;
    if (d === 0 && ids.length === 1) {
      out.set(ids[0], { x: 0, y: 0 });
      continue;
    }
    let i = 0;
    while (i < ids.length) {
      radius += SPACING * 2;
      const fits = Math.max(1, Math.floor((2 * Math.PI * radius) / SPACING));
      const ring = ids.slice(i, i + fits);
      ring.forEach((id, k) => {
        const a = (2 * Math.PI * k) / ring.length + d * 0.5;
        out.set(id, { x: radius * Math.cos(a), y: radius * Math.sin(a) });
      });
      i += ring.length;
    }
  }
  return out;
}

const COLUMN = 170;
const ROW = 70;

/**
 * A layered layout of a whole neighbourhood (a group's tree): a node's column is the longest chain
 * of edges leading to it (users, then the groups they are members of, the groups those are nested
 * in, then what the groups are granted), so every edge points right; within a column the nodes
 * are ordered by the mean row of the nodes they come from (one pass), which keeps most edges short
 * and uncrossed. Linear in nodes and edges; an edge that closes a cycle is left out of the layering.
 */
export function layeredGraphPositions(g: Neighbourhood): Map<string, { x: number; y: number }> {
  const next = new Map<string, string[]>();
  const from = new Map<string, string[]>();
  const waiting = new Map<string, number>(g.nodes.map((n) => [n.id, 0]));
  for (const e of g.edges) {
    if (e.from === e.to || !waiting.has(e.from) || !waiting.has(e.to)) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    from.set(e.to, [...(from.get(e.to) ?? []), e.from]);
    waiting.set(e.to, waiting.get(e.to)! + 1);
  }
  const layer = new Map<string, number>();
  const queue = g.nodes.map((n) => n.id).filter((id) => waiting.get(id) === 0);
  for (const id of queue) layer.set(id, 0);
  for (let head = 0; head < queue.length; head++) {
    const at = queue[head];
    for (const to of next.get(at) ?? []) {
      layer.set(to, Math.max(layer.get(to) ?? 0, layer.get(at)! + 1));
      waiting.set(to, waiting.get(to)! - 1);
      if (waiting.get(to) === 0) queue.push(to);
    }
  }
  const columns: string[][] = [];
  for (const n of g.nodes) {
    const l = layer.get(n.id) ?? 0;
    (columns[l] ??= []).push(n.id);
  }
  const row = new Map<string, number>();
  const out = new Map<string, { x: number; y: number }>();
  columns.forEach((column, l) => {
    const mean = (id: string) => {
      const rows = (from.get(id) ?? []).map((p) => row.get(p)).filter((r): r is number => r !== undefined);
      return rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : Number.POSITIVE_INFINITY;
    };
    const order = column.map((id, i) => ({ id, i, m: mean(id) })).sort((a, b) => a.m - b.m || a.i - b.i);
    order.forEach(({ id }, r) => {
      row.set(id, r);
      out.set(id, { x: l * COLUMN, y: (r - (order.length - 1) / 2) * ROW });
    });
  });
  return out;
}

/**
 * A layered layout of paths (each a list of hops from the user): a node's column is the longest
 * number of hops that leads to it on any path (so every edge points right), its row the order in
 * which the paths first reach that column. Linear in the paths' length.
 */
export function layeredPositions(paths: { from: string; to: string }[][]): Map<string, { x: number; y: number }> {
  const layer = new Map<string, number>();
  for (const steps of paths) {
    steps.forEach((step, i) => {
      layer.set(step.from, Math.max(layer.get(step.from) ?? 0, i));
      layer.set(step.to, Math.max(layer.get(step.to) ?? 0, i + 1));
    });
  }
  const rows = new Map<number, number>();
  const out = new Map<string, { x: number; y: number }>();
  for (const steps of paths)
    for (const ref of [steps[0]?.from, ...steps.map((s) => s.to)]) {
      if (ref === undefined || out.has(ref)) continue;
      const l = layer.get(ref)!;
      const row = rows.get(l) ?? 0;
      rows.set(l, row + 1);
      out.set(ref, { x: l * COLUMN, y: row * ROW });
    }
  return out;
}
