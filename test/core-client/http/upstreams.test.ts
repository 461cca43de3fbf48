import { afterEach, describe, expect, it } from 'vitest';
import { resolveCoreTargets } from '../../../core-client/src/http/target.js';
import { Upstreams } from '../../../core-client/src/http/upstreams.js';

describe('Upstreams: spreading requests over cores that share a database', () => {
  let upstreams: Upstreams;
  afterEach(async () => {
    await upstreams.close();
  });
  const start = (...urls: string[]): Upstreams => new Upstreams(resolveCoreTargets({ baseUrl: urls }), { connections: 4 });

  it('sends each request to the core with the fewest in flight, taking turns on a tie', () => {
    upstreams = start('http://127.0.0.1:1', 'http://127.0.0.1:2', 'http://127.0.0.1:3');
    const picked = [0, 1, 2, 3, 4, 5].map(() => {
      const upstream = upstreams.pick(0);
      upstream.inFlight += 1;
      return upstream.target.baseUrl.slice(-1);
    });
    expect(picked.slice(0, 3).sort()).toEqual(['1', '2', '3']);
    expect(picked.slice(3).sort()).toEqual(['1', '2', '3']);
    const [first, second, third] = upstreams.all;
    first!.inFlight = 5;
    second!.inFlight = 1;
    third!.inFlight = 3;
    expect(upstreams.pick(0)).toBe(second);
  });

  it('lets a core that cannot be reached rest, longer each time in a row, until it answers again', () => {
    upstreams = start('http://127.0.0.1:1', 'http://127.0.0.1:2');
    const [down, up] = upstreams.all;
    upstreams.unreachable(down!, 1_000);
    expect(down!.restUntil).toBe(1_500);
    upstreams.unreachable(down!, 1_000);
    expect(down!.restUntil).toBe(2_000);
    for (let i = 0; i < 4; i += 1) expect(upstreams.pick(1_100)).toBe(up);
    expect(upstreams.states(1_100).map((state) => state.resting)).toEqual([true, false]);
    // Rested: chosen again (it has fewer in flight), and one answer of any kind makes it healthy.
    up!.inFlight = 3;
    expect(upstreams.pick(2_001)).toBe(down);
    upstreams.answered(down!);
    expect(down!.failures).toBe(0);
  });

  it('when every core rests, tries the one whose rest ends first; a pinned core is always that core', () => {
    upstreams = start('http://127.0.0.1:1', 'http://127.0.0.1:2');
    const [first, second] = upstreams.all;
    for (let i = 0; i < 3; i += 1) upstreams.unreachable(first!, 0);
    upstreams.unreachable(second!, 0);
    expect(upstreams.pick(10)).toBe(second);
    expect(upstreams.pick(10, 0)).toBe(first);
    expect(() => upstreams.pick(10, 2)).toThrow(/no core number 2/);
  });

  it('drops a core given twice (after normalising), keeping the order given', () => {
    upstreams = start('http://127.0.0.1:2/', 'http://127.0.0.1:1', 'http://127.0.0.1:2');
    expect(upstreams.all.map((upstream) => upstream.target.baseUrl)).toEqual(['http://127.0.0.1:2', 'http://127.0.0.1:1']);
  });
});
