import type { ScreenSpec } from '../app/screen.js';
import type { ScreenId } from '../app/state.js';
import { describeOrigin, isOriginKey } from '../app/origins.js';
import { connectScreen } from './connect.js';
import { hashesScreen } from './hashes.js';
import { identityScreen } from './identity.js';
import { pushScreen } from './push.js';
import { reportScreen } from './report.js';
import { reviewScreen } from './review.js';
import { sourceScreen } from './source.js';
import { summaryScreen } from './summary.js';

/**
 * A field that shows a value the app was given (a flag, CORE_URL) says where it came from, before its own note:
 * the operator reads the screen, not the command line or the environment.
 */
function withOrigins(screen: ScreenSpec): ScreenSpec {
  return {
    ...screen,
    fields: (context) =>
      screen.fields(context).map((field) => {
        const origin = field.setting !== undefined && isOriginKey(field.setting) ? describeOrigin(context.state.origins[field.setting]) : undefined;
        if (origin === undefined) return field;
        return { ...field, note: field.note === undefined || field.note === '' ? origin : `${origin} · ${field.note}` };
      }),
  };
}

/** Every screen of the app by its id: the router sends each key to the one the state names. */
export const screens: Record<ScreenId, ScreenSpec> = {
  connect: withOrigins(connectScreen),
  source: withOrigins(sourceScreen),
  hashes: withOrigins(hashesScreen),
  identity: withOrigins(identityScreen),
  review: withOrigins(reviewScreen),
  push: pushScreen,
  summary: summaryScreen,
  report: reportScreen,
};
