import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not go by default (docs/behaviour.md section 15): every address that is not public
 * unicast. "This network", RFC 1918, CGNAT, loopback, link-local (the metadata endpoint of AWS,
 * GCP and Azure), IETF protocol and documentation ranges, benchmarking, multicast and reserved;
 * Alibaba's metadata address; IPv6 unique-local (AWS's fd00:ec2::254 included), link-local,
 * site-local, multicast, NAT64 (64:ff9b::/96 reaches 64:ff9b::a9fe:a9fe = 169.254.169.254),
 * 6to4, Teredo and other protocol ranges, documentation, discard. IPv4-mapped (::ffff:0:0/96) and
 * IPv4-compatible (::/96, with :: and ::1) forms are refused by their own test below: a ::ffff:0:0/96
 * rule in a BlockList would also match every IPv4 address.
 */
const SPECIAL_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '100.100.100.200/32',
];
const SPECIAL_V6 = [
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
];

function listOf(cidrs: string[], family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const c of cidrs) list.addSubnet(c.slice(0, c.indexOf('/')), Number(c.slice(c.indexOf('/') + 1)), family);
  return list;
}
const specialV4 = listOf(SPECIAL_V4, 'ipv4');
const specialV6 = listOf(SPECIAL_V6, 'ipv6');
const embeddedV4 = listOf(['::ffff:0:0/96', '::/96'], 'ipv6');

/** Whether an address is not public unicast (each family checked against its own rules only). */
export function isSpecialAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return specialV4.check(address, 'ipv4');
  if (family === 6) return embeddedV4.check(address, 'ipv6') || specialV6.check(address, 'ipv6');
  return false;
}

/**
 * Networks an outgoing request (a webhook delivery) may not reach: a list of CIDR blocks
 * ("169.254.0.0/16,fe80::/10"), matched against the address a host name resolves to, so that a
 * name pointing at a blocked address is refused too; an IPv4 address written as IPv6
 * (`::ffff:169.254.169.254`) or as one number (`http://2852039166/`) is the same address.
 * For webhooks (`forWebhooks`) every address that is not public unicast is refused as well,
 * unless an allowed list (WEBHOOK_ALLOWED_NETWORKS) holds it; the blocked list wins over that.
 */
export class BlockedNetworks {
  private constructor(
    private readonly list: BlockList,
    /** Set: special addresses are refused unless in this list. Unset: only `list` is refused. */
    private readonly allowed?: BlockList,
  ) {}

  /** Parses "a.b.c.d/n,x::/n,..."; throws an Error naming the first entry that is not a CIDR block. */
  static parse(spec: string): BlockedNetworks {
    return new BlockedNetworks(cidrList(spec));
  }

  /** The webhooks' policy: `blocked` always refused, special addresses refused unless in `allowed`. */
  static forWebhooks(blocked: string, allowed: string): BlockedNetworks {
    return new BlockedNetworks(cidrList(blocked), cidrList(allowed));
  }

  /** Whether an IP address is refused (an IPv4-mapped IPv6 address as its IPv4 one by the lists). */
  blocks(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return false;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (this.list.check(address, type)) return true;
    return this.allowed !== undefined && !this.allowed.check(address, type) && isSpecialAddress(address);
  }

  /** Whether a URL names a blocked address literally (a host name is decided when it resolves). */
  blocksLiteral(url: string): boolean {
    let host: string;
    try {
      host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    } catch {
      return false;
    }
    return this.blocks(host);
  }

  /**
   * A `lookup` for node:http(s) requests: resolves as dns.lookup does and fails with
   * BlockedDestination when an answer lies in a blocked network. The connection goes to the
   * address checked here, so a name cannot resolve differently between the check and the connect.
   */
  readonly lookup = (
    hostname: string,
    options: LookupOneOptions | LookupAllOptions,
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const blocked = addresses.find((a) => this.blocks(a.address));
      if (blocked) return callback(new BlockedDestination(hostname, blocked.address), []);
      if ((options as LookupAllOptions).all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export class BlockedDestination extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, in a blocked network`);
    this.name = 'BlockedDestination';
  }
}

function cidrList(spec: string): BlockList {
  const list = new BlockList();
  for (const entry of spec
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const m = /^([^/]+)\/(\d{1,3})$/.exec(entry);
    const family = m ? isIP(m[1]) : 0;
    const prefix = m ? Number(m[2]) : NaN;
    if (!m || !family || prefix > (family === 4 ? 32 : 128))
      throw new Error(`${JSON.stringify(entry)} is not a CIDR block (such as 169.254.0.0/16 or fe80::/10)`);
    list.addSubnet(m[1], prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}
