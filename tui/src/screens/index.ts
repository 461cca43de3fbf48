import type { ScreenSpec } from '../app/screen.js';
import type { ScreenId } from '../app/state.js';
import { connectScreen } from './connect.js';
import { hashesScreen } from './hashes.js';
import { identityScreen } from './identity.js';
import { pushScreen } from './push.js';
import { reportScreen } from './report.js';
import { reviewScreen } from './review.js';
import { sourceScreen } from './source.js';
import { summaryScreen } from './summary.js';

/** Every screen of the app by its id: the router sends each key to the one the state names. */
export const screens: Record<ScreenId, ScreenSpec> = {
  connect: connectScreen,
  source: sourceScreen,
  hashes: hashesScreen,
  identity: identityScreen,
  review: reviewScreen,
  push: pushScreen,
  summary: summaryScreen,
  report: reportScreen,
};
