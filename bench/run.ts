import { benchAuth0Join } from './auth0-join.js';
import { benchPlan } from './plan.js';
import { benchSupabaseDatabasePlan } from './plan-database.js';
import { benchPush } from './push.js';
import { benchRealCore } from './real-core.js';
import { benchRealCorePaired } from './real-core-paired.js';
import { benchRealCoreLoginTime } from './real-core-login-time.js';
import { benchRealCoreTunings } from './real-core-tunings.js';
import { benchServiceSpread } from './service-spread.js';
import { benchStartup } from './startup.js';
import { benchIdentity } from './identity.js';
import { benchLegacyHashes } from './legacy-hashes.js';
import { benchLoginService, benchVerifierPool } from './login-service.js';
import { benchOldSystems } from './old-systems.js';
import { benchLockingCalibration } from './locking-calibration.js';
import { benchLockLeftovers } from './lock-leftovers.js';
import { benchControllerSimulation } from './controller-simulation.js';
import { benchSync, benchSyncAgainstPush } from './sync.js';

// `npm run bench`: figures for the notes, never assertions. Sizes can be shrunk for a quick look: BENCH_QUICK=1.
// `npm run bench -- real-core push` runs only the parts named.
const quick = process.env.BENCH_QUICK === '1';
const named = process.argv.slice(2);
const parts: [string, () => Promise<unknown>][] = [
  ['startup', () => benchStartup()],
  [
    'plan',
    async () => {
      await benchPlan(quick ? [10_000, 100_000] : [1_000_000, 5_000_000], (users) => (quick ? 1 : users >= 5_000_000 ? 2 : 3));
      await benchSupabaseDatabasePlan(quick ? [10_000, 30_000] : [100_000, 300_000]);
    },
  ],
  ['push', () => benchPush({ quick })],
  ['service-spread', () => benchServiceSpread({ quick })],
  ['real-core', () => benchRealCore(quick ? { seconds: 4, holding: 2_000, sweepRounds: 1, pairs: 2 } : {})],
  ['real-core-paired', () => benchRealCorePaired(quick ? { seconds: 4, holding: 2_000 } : {})],
  ['real-core-tunings', () => benchRealCoreTunings(quick ? { pairs: 1, seconds: 4 } : {})],
  ['real-core-login-time', () => benchRealCoreLoginTime(quick ? { seconds: 4, rounds: 1 } : {})],
  ['locking', () => benchLockingCalibration(quick ? { seconds: 2, rounds: 1, holding: 2_000 } : {})],
  ['lock-leftovers', () => benchLockLeftovers(quick ? { users: 500 } : {})],
  ['controller-simulation', () => Promise.resolve(benchControllerSimulation())],
  ['identity', () => benchIdentity(quick ? 1_000 : 4_000)],
  ['auth0-join', () => benchAuth0Join(quick ? 50_000 : 500_000)],
  ['sync', () => benchSync(quick ? [100_000] : [1_000_000, 5_000_000])],
  ['sync-against-push', () => benchSyncAgainstPush(quick ? 2_000 : 20_000)],
  ['legacy-hashes', () => benchLegacyHashes(quick ? 0.5 : 3)],
  ['verifier-pool', () => benchVerifierPool(quick ? 0.5 : 3)],
  ['login-service', () => benchLoginService(quick ? 3 : 10)],
  ['old-systems', () => benchOldSystems({ perLevel: quick ? 50 : 300 })],
];
for (const [name, part] of parts) if (named.length === 0 || named.includes(name)) await part();
