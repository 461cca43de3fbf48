import ipaddr from 'ipaddr.js';

/**
 * An end user's address as the attempt limits compare it: as an address, never as the text it came in. `address` is
 * the address written one way (an IPv4-mapped IPv6 address as its IPv4 address; IPv6 in RFC 5952's form: lower case,
 * no leading zeros, the longest run of zero groups compressed, no zone), for the log. `limitKey` is what the limits
 * count: an IPv4 address, or the /64 prefix of an IPv6 one, as one IPv6 host usually holds a whole /64 (SLAAC's
 * privacy addresses change within it) and could otherwise try again from a new address at will.
 */
export interface ClientAddress {
  address: string;
  limitKey: string;
}

/** Bits of an IPv6 address that name the client for the limits: the network prefix one site or host is given. */
export const IPV6_CLIENT_PREFIX_BITS = 64;

/**
 * The client of a text address (`clientAddress` of a request, or a socket's peer), undefined when the text is not an
 * IPv4 address in four decimal parts or an IPv6 address: ipaddr.js also reads "127.1" and "0x7f.0.0.1", which the
 * service's body never lets through and which no socket gives.
 */
export function clientAddressOf(text: string): ClientAddress | undefined {
  if (!ipaddr.IPv4.isValidFourPartDecimal(text) && !ipaddr.IPv6.isValid(text)) return undefined;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return ipv4Client(parsed.toString());
  const ipv6 = ipaddr.IPv6.parse(text);
  if (ipv6.isIPv4MappedAddress()) return ipv4Client(ipv6.toIPv4Address().toString());
  // Without the zone (`%eth0`): it names an interface of this machine, not the client.
  const address = new ipaddr.IPv6(ipv6.parts).toRFC5952String();
  const groups = IPV6_CLIENT_PREFIX_BITS / 16;
  const network = new ipaddr.IPv6(ipv6.parts.map((part, index) => (index < groups ? part : 0)));
  return { address, limitKey: `${network.toRFC5952String()}/${IPV6_CLIENT_PREFIX_BITS}` };
}

function ipv4Client(address: string): ClientAddress {
  return { address, limitKey: address };
}
