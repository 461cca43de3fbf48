import { describe, expect, it } from 'vitest';
import { AttemptLimits } from '../../../core-client/src/login-time/attempt-limits.js';

/** A clock the test moves by hand: no test here waits. */
function manualClock(): { now: () => number; advance: (seconds: number) => void } {
  let time = 1_000_000;
  return { now: () => time, advance: (seconds) => (time += seconds * 1000) };
}

function fail(limits: AttemptLimits, email: string, client: string): void {
  const admission = limits.begin({ email, client });
  if (!admission.admitted) throw new Error(`${email} from ${client} was not admitted`);
  limits.end(admission.ticket, 'wrongPassword');
}

describe('attempt limits of a login-time migration', () => {
  it('after the wrong passwords allowed for one email, it answers try later until the window ends', () => {
    const clock = manualClock();
    const limits = new AttemptLimits({ maxFailuresPerEmail: 3, windowSeconds: 60 }, clock.now);
    for (let attempt = 0; attempt < 3; attempt += 1) fail(limits, 'ada@example.com', `10.0.0.${attempt}`);
    expect(limits.begin({ email: 'ada@example.com', client: '10.0.0.9' })).toEqual({ admitted: false, retryAfterSeconds: 60 });
    clock.advance(45);
    expect(limits.begin({ email: 'ada@example.com', client: '10.0.0.9' })).toEqual({ admitted: false, retryAfterSeconds: 15 });
    // Another account is not held by this one's failures.
    expect(limits.begin({ email: 'bob@example.com', client: '10.0.0.9' })).toMatchObject({ admitted: true });
    clock.advance(15);
    expect(limits.begin({ email: 'ada@example.com', client: '10.0.0.9' })).toMatchObject({ admitted: true });
  });

  it('one client guessing at many emails is held by its own limit', () => {
    const clock = manualClock();
    const limits = new AttemptLimits({ maxFailuresPerEmail: 5, maxFailuresPerClient: 4, windowSeconds: 30 }, clock.now);
    for (let user = 0; user < 4; user += 1) fail(limits, `user${user}@example.com`, '192.0.2.7');
    expect(limits.begin({ email: 'fresh@example.com', client: '192.0.2.7' })).toEqual({ admitted: false, retryAfterSeconds: 30 });
    expect(limits.begin({ email: 'fresh@example.com', client: '192.0.2.8' })).toMatchObject({ admitted: true });
  });

  it('checks under way count: a burst of parallel guesses is bounded before any has ended', () => {
    const limits = new AttemptLimits({ maxFailuresPerEmail: 2 }, manualClock().now);
    const first = limits.begin({ email: 'ada@example.com', client: 'a' });
    const second = limits.begin({ email: 'ada@example.com', client: 'b' });
    expect([first.admitted, second.admitted]).toEqual([true, true]);
    expect(limits.begin({ email: 'ada@example.com', client: 'c' })).toMatchObject({ admitted: false });
    if (first.admitted) limits.end(first.ticket, 'neither');
    expect(limits.begin({ email: 'ada@example.com', client: 'c' })).toMatchObject({ admitted: true });
  });

  it('a right password clears the email’s failures', () => {
    const limits = new AttemptLimits({ maxFailuresPerEmail: 2 }, manualClock().now);
    fail(limits, 'ada@example.com', 'a');
    const right = limits.begin({ email: 'ada@example.com', client: 'a' });
    if (right.admitted) limits.end(right.ticket, 'matched');
    fail(limits, 'ada@example.com', 'a');
    expect(limits.begin({ email: 'ada@example.com', client: 'a' })).toMatchObject({ admitted: true });
  });

  it('remembers at most maxTracked keys: expired windows go first, then the oldest', () => {
    const clock = manualClock();
    const limits = new AttemptLimits({ maxFailuresPerEmail: 1, maxFailuresPerClient: 100_000, windowSeconds: 10, maxTracked: 100 }, clock.now);
    for (let user = 0; user < 100; user += 1) fail(limits, `old${user}@example.com`, 'c');
    clock.advance(10);
    for (let user = 0; user < 150; user += 1) fail(limits, `new${user}@example.com`, 'c');
    expect(limits.tracked.emails).toBeLessThanOrEqual(100);
    // The newest failures are still counted.
    expect(limits.begin({ email: 'new149@example.com', client: 'c' })).toMatchObject({ admitted: false });
  });
});
