import { lookup as dnsLookup, LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Networks an outgoing request (a webhook delivery) may not reach: a list of CIDR blocks
 * ("169.254.0.0/16,fe80::/10"), matched against the address a host name resolves to, so that a
 * name pointing at a blocked address is refused too; an IPv4 address written as IPv6
 * (`::ffff:169.254.169.254`) or as one number (`http://2852039166/`) is the same address.
 */
export class BlockedNetworks {
  private constructor(private readonly list: BlockList) {}

  /** Parses "a.b.c.d/n,x::/n,..."; throws an Error naming the first entry that is not a CIDR block. */
  static parse(spec: string): BlockedNetworks {
    const list = new BlockList();
    for (const entry of spec.split(',').map((e) => e.trim()).filter(Boolean)) {
      const m = /^([^/]+)\/(\d{1,3})$/.exec(entry);
      const family = m ? isIP(m[1]) : 0;
      const prefix = m ? Number(m[2]) : NaN;
      if (!m || !family || prefix > (family === 4 ? 32 : 128)) throw new Error(`${JSON.stringify(entry)} is not a CIDR block (such as 169.254.0.0/16 or fe80::/10)`);
      list.addSubnet(m[1], prefix, family === 4 ? 'ipv4' : 'ipv6');
    }
    return new BlockedNetworks(list);
  }

  /** Whether an IP address lies in a blocked network (an IPv4-mapped IPv6 address as its IPv4 one). */
  blocks(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
  readonly lookup = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void): void => {
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
