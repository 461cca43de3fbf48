// Runs under plain Node (its own type stripping), on the compiled core-client: the memory of what the CLI runs,
// without a TypeScript loader in the process.
import { parseHashConfig, summarisePlan } from 'core-client';

// The synthetic export's hash parameters are the vendor's public test parameters (see test/fixtures).
const hashConfig = parseHashConfig(
  'hash_config { algorithm: SCRYPT, base64_signer_key: jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==, base64_salt_separator: Bw==, rounds: 8, mem_cost: 14 }',
);
if (hashConfig instanceof Error) throw hashConfig;

const file = process.argv[2];
if (file === undefined) throw new Error('usage: plan-child.ts <export file>');
const started = performance.now();
const summary = await summarisePlan(file, { hashConfig });
const seconds = (performance.now() - started) / 1000;
process.stdout.write(JSON.stringify({ records: summary.records, seconds, peakRssKiB: process.resourceUsage().maxRSS }));
