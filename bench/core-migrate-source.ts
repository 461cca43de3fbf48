import { main } from '../tui/src/cli.js';

// `core-migrate` run from the sources (tsx), as the bench measures the code of the checkout without a build.
process.exitCode = await main(process.argv.slice(2));
