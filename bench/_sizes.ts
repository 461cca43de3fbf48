import { benchSync } from './sync.js';
await benchSync([1_000_000, 5_000_000]);
