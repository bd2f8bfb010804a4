import { BlockedNetworks } from '../../src/util/networks';

describe('BlockedNetworks', () => {
  const blocked = BlockedNetworks.parse('169.254.0.0/16, 10.0.0.0/8,fe80::/10');

  it('blocks addresses inside the listed blocks, in every spelling of the address', () => {
    for (const a of ['169.254.169.254', '10.1.2.3', 'fe80::1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe'])
      expect({ a, blocked: blocked.blocks(a) }).toEqual({ a, blocked: true });
    for (const a of ['169.255.0.1', '11.0.0.1', '2001:db8::1', '127.0.0.1', 'example.com'])
      expect({ a, blocked: blocked.blocks(a) }).toEqual({ a, blocked: false });
  });

  it('reads the host of a URL, however the address is written', () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://2852039166/',
      'http://0xa9.0xfe.0xa9.0xfe/',
      'https://[fe80::1]:8443/x',
      'http://[::ffff:169.254.169.254]/',
    ]) {
      expect({ url, blocked: blocked.blocksLiteral(url) }).toEqual({ url, blocked: true });
    }
    for (const url of ['http://example.com/', 'http://127.0.0.1:8080/', 'not a url'])
      expect({ url, blocked: blocked.blocksLiteral(url) }).toEqual({ url, blocked: false });
  });

  it('fails the lookup of a name that resolves into a blocked network, and passes others through', async () => {
    const loopback = BlockedNetworks.parse('127.0.0.0/8,::1/128');
    const resolve = (b: BlockedNetworks, host: string) =>
      new Promise<string>((ok, fail) => b.lookup(host, {}, (err, address) => (err ? fail(err) : ok(address as string))));
    await expect(resolve(loopback, 'localhost')).rejects.toThrow(/localhost resolves to (127\.0\.0\.1|::1), in a blocked network/);
    await expect(resolve(blocked, 'localhost')).resolves.toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('refuses a list entry that is not a CIDR block, naming it', () => {
    for (const bad of ['10.0.0.0', '10.0.0.0/33', 'fe80::/129', 'example.com/8', '10.0.0.0/8,/8']) {
      expect(() => BlockedNetworks.parse(bad)).toThrow(/is not a CIDR block/);
    }
    expect(BlockedNetworks.parse('').blocks('169.254.169.254')).toBe(false);
  });
});

describe('BlockedNetworks.forWebhooks (docs/behaviour.md section 15)', () => {
  const policy = BlockedNetworks.forWebhooks('169.254.169.254/32', '');

  it('refuses every address that is not public unicast, in every form', () => {
    const refused = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '100.127.255.254',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '100.100.100.200',
      '192.0.0.192',
      '::1',
      '::',
      'fc00::1',
      'fd00:ec2::254',
      'fe80::1',
      'ff02::1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::808:808',
      '::ffff:127.0.0.1',
      '::ffff:8.8.8.8',
      '::127.0.0.1',
      '::a00:1',
      '2002:a00:1::1',
      '2001:db8::1',
    ];
    for (const a of refused) expect({ a, refused: policy.blocks(a) }).toEqual({ a, refused: true });
    for (const a of ['8.8.8.8', '93.184.216.34', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e']) {
      expect({ a, refused: policy.blocks(a) }).toEqual({ a, refused: false });
    }
    for (const url of [
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[::ffff:10.0.0.1]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://100.64.0.1/',
      'http://[fc00::1]/',
    ]) {
      expect({ url, refused: policy.blocksLiteral(url) }).toEqual({ url, refused: true });
    }
  });

  it('lets the allowed networks through, except what the blocked list names', () => {
    const inside = BlockedNetworks.forWebhooks('10.9.0.0/16', '10.0.0.0/8,fc00::/7');
    expect(inside.blocks('10.1.2.3')).toBe(false);
    expect(inside.blocks('::ffff:10.1.2.3')).toBe(false);
    expect(inside.blocks('fd12::1')).toBe(false);
    expect(inside.blocks('10.9.1.1')).toBe(true);
    expect(inside.blocks('192.168.1.1')).toBe(true);
    expect(inside.blocks('8.8.8.8')).toBe(false);
  });
});
