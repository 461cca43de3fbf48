import { stat } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';

/**
 * A warning when a file holding a secret (api-key, signer key in a hash-config, passwords of known accounts) can be
 * read by other users of the machine; undefined when only its owner (and group-less) can, or it cannot be checked.
 */
export async function readableByOthersWarning(path: string, holds: string): Promise<string | undefined> {
  if (process.platform === 'win32') return undefined;
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return undefined;
  const exposed = info.mode & 0o044;
  if (exposed === 0) return undefined;
  const who = exposed & 0o004 ? 'every user of this machine' : 'its group';
  const mode = (info.mode & 0o777).toString(8).padStart(3, '0');
  return `Warning: ${path} holds ${holds} and is readable by ${who} (mode ${mode}): run chmod 600 ${path}.`;
}

/** A warning when the api-key would travel in clear: plain http:// to a host that is not this machine. */
export function plainHttpWarning(coreUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(coreUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || isLoopback(url.hostname)) return undefined;
  return `Warning: ${url.origin} is plain http:// to another host: the api-key and every password hash travel in clear. Use https://, or an SSH tunnel to 127.0.0.1.`;
}

/** 127.0.0.0/8 and ::1; IPv4-mapped IPv6 forms (`[::ffff:127.0.0.1]`, which URL writes `[::ffff:7f00:1]`) included. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}
