import { benchAuth0Join } from './auth0-join.js';
import { benchPlan } from './plan.js';
import { benchPush } from './push.js';
import { benchStartup } from './startup.js';
import { benchIdentity } from './identity.js';
import { benchLegacyHashes } from './legacy-hashes.js';
import { benchSync, benchSyncAgainstPush } from './sync.js';

// `npm run bench`: figures for the notes, never assertions. Sizes can be shrunk for a quick look: BENCH_QUICK=1.
const quick = process.env.BENCH_QUICK === '1';
await benchStartup();
await benchPlan(quick ? [10_000, 100_000] : [1_000_000, 5_000_000], (users) => (quick ? 1 : users >= 5_000_000 ? 2 : 3));
await benchPush({ quick });
await benchIdentity(quick ? 1_000 : 4_000);
await benchAuth0Join(quick ? 50_000 : 500_000);
await benchSync(quick ? [100_000] : [1_000_000, 5_000_000]);
await benchSyncAgainstPush(quick ? 2_000 : 20_000);
await benchLegacyHashes(quick ? 0.5 : 3);
