// What neo4j-driver's JavaScript spends on a batch of checks' parameters and rows, in one process
// (no Neo4j): its packer runs every parameter value through the protocol's type checks (13
// transformers a value), so a batch of eight checks sent as maps (five fields each) costs far more
// than the same checks packed into one string (src/areas/decisions/packedChecks.ts, what the
// service sends the walk extension); and reading eight rows back, against one row of lists.
//   npm run build && node bench/driverPacking.mjs        (BENCH_ROUNDS, default 3)
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { root } from './ours.mjs';

const require = createRequire(join(root, 'package.json'));
const lib = (p) => require(join(root, 'node_modules/neo4j-driver-bolt-connection/lib', p));
const { Chunker } = lib('channel/chunking.js');
const packstream = lib('packstream/packstream-v2.js');
const { Structure } = lib('packstream/structure.js');
const Transformer = lib('bolt/transformer.js').default;
const ChannelBuffer = lib('channel/channel-buf.js').default;
const transformers = lib('bolt/bolt-protocol-v5x8.transformer.js').default;
const core = require(join(root, 'node_modules/neo4j-driver-core'));
const { packChecks } = require(join(root, 'dist/src/areas/decisions/packedChecks.js'));

const transformer = new Transformer(Object.values(transformers).map((make) => make({ disableLosslessIntegers: true }, {})));
const dehydrate = (x) => transformer.toStructure(x);
const hydrate = (x) => transformer.fromStructure(x);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const checks = Array.from({ length: 8 }, (_, i) => ({
  user: `user-${i * 977}`,
  action: 'push',
  type: 'repo',
  key: `repo-${i * 131}`,
  tenant: null,
}));
const common = {
  env: 'e0f1c2d3-aaaa-bbbb-cccc-0123456789ab',
  depth: core.int(12),
  defaultTenant: 'default',
  explain: false,
  nowMs: core.int(Date.now()),
};
const asMaps = { ...common, checks };
const asString = { ...common, checks: packChecks(checks) };

// Packing: into a chunker whose channel drops what it is given (the socket write is not measured).
const packer = new packstream.Packer(new Chunker({ write() {} }, 1400));
const packUs = (params, n = 100_000) => {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) packer.packable(params, dehydrate)();
  return Number(process.hrtime.bigint() - t) / n / 1000;
};

// Unpacking: RECORD messages (signature 0x71) as Neo4j sends them, through the driver's unpacker and Record.
const bytes = [];
const sink = {};
for (const [name, size] of [
  ['UInt8', 1],
  ['Int8', 1],
  ['UInt16', 2],
  ['Int16', 2],
  ['UInt32', 4],
  ['Int32', 4],
  ['Float64', 8],
]) {
  sink[`write${name}`] = (v) => {
    const b = Buffer.alloc(size);
    b[`write${name === 'Float64' ? 'DoubleBE' : `${name}${size > 1 ? 'BE' : ''}`}`](v);
    bytes.push(b);
  };
}
sink.writeBytes = (b) => bytes.push(Buffer.from(b));
const recordPacker = new packstream.Packer(sink);
const recordOf = (fields) => {
  bytes.length = 0;
  recordPacker.packable(new Structure(0x71, [fields]))();
  return Buffer.concat(bytes);
};
const keys = ['idx', 'allow', 'validUntil', 'depthLimited', 'explanation', 'stored', 'revision'];
const eightRows = Array.from({ length: 8 }, (_, i) => recordOf([core.int(i), i % 2 === 0, null, false, null, null, core.int(1234)]));
const oneRow = recordOf([Array.from({ length: 8 }, (_, i) => i % 2 === 0), Array(8).fill(null), Array(8).fill(false), core.int(1234)]);
const unpacker = new packstream.Unpacker(true, false);
const unpackUs = (messages, fieldKeys, n = 100_000) => {
  const lookup = Object.fromEntries(fieldKeys.map((k, i) => [k, i]));
  const buffers = messages.map((m) => new ChannelBuffer(m));
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++)
    for (const b of buffers) {
      b.position = 0;
      new core.Record(fieldKeys, unpacker.unpack(b, hydrate).fields[0], lookup).toObject();
    }
  return Number(process.hrtime.bigint() - t) / n / 1000;
};

const fmt = (xs) => xs.map((x) => x.toFixed(1)).join(', ');
const rows = { maps: [], string: [], eight: [], one: [] };
for (let r = 0; r < rounds; r++) {
  rows.maps.push(packUs(asMaps));
  rows.string.push(packUs(asString));
  rows.eight.push(unpackUs(eightRows, keys));
  rows.one.push(unpackUs([oneRow], ['allow', 'validUntil', 'depthLimited', 'revision']));
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`µs a batch of 8 checks, by round (median), load average ${loadavg()[0].toFixed(2)}:`);
console.log(`  parameters, checks as maps:         ${fmt(rows.maps)} (${med(rows.maps).toFixed(1)})`);
console.log(`  parameters, checks as one string:   ${fmt(rows.string)} (${med(rows.string).toFixed(1)})`);
console.log(`  answers, 8 rows of 7 fields:        ${fmt(rows.eight)} (${med(rows.eight).toFixed(1)})`);
console.log(`  answers, 1 row of 4 lists:          ${fmt(rows.one)} (${med(rows.one).toFixed(1)})`);
