import type { StackConfig } from './config.js';

export type CoreUrlSettings = Pick<StackConfig, 'bindAddress' | 'hostPort' | 'coreUrl' | 'replicas'>;

/**
 * The URL clients use for each core, the first core first. Core i is published on hostPort + i; a configured
 * coreUrl names the first, and the others are the same URL on the following ports (the config insists that it
 * names its port when there are several). A wildcard bind address is reachable on loopback, which is the only
 * place the default can point to.
 */
export function coreUrlsFor(config: CoreUrlSettings): [string, ...string[]] {
  // Index 0 always exists: at least one core, whatever replicas says.
  const indexes: [number, ...number[]] = [0, ...Array.from({ length: config.replicas - 1 }, (_unused, index) => index + 1)];
  if (config.coreUrl !== undefined) {
    const first = new URL(config.coreUrl);
    if (config.replicas === 1) return [withoutTrailingSlash(config.coreUrl)];
    return mapAll(indexes, (index) => {
      const url = new URL(first);
      url.port = String(Number(first.port) + index);
      return withoutTrailingSlash(url.toString());
    });
  }
  const host = urlHostOf(config.bindAddress);
  return mapAll(indexes, (index) => `http://${host}:${config.hostPort + index}`);
}

/** The host of a URL that reaches a port published on `bindAddress`: a wildcard is reached on loopback. */
export function urlHostOf(bindAddress: string): string {
  if (bindAddress === '0.0.0.0') return '127.0.0.1';
  if (bindAddress === '::') return '[::1]';
  return bindAddress.includes(':') ? `[${bindAddress}]` : bindAddress;
}

function mapAll<T, U>([head, ...tail]: [T, ...T[]], map: (value: T) => U): [U, ...U[]] {
  return [map(head), ...tail.map(map)];
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
