import type { SyncForecast } from '../summary/push-summary.js';
import { settingName, type SettingFace } from './setting-flags.js';

/** How a face tells the operator to set a setting: the flag on the command line, the field in the app. */
function setIt(face: SettingFace, flags: string, app: string): string {
  return face === 'flags' ? `run again with ${flags}` : app;
}

/**
 * The sentence when a sync withheld its removals (more than its limit), else undefined: how many it would have
 * removed, and how to raise the limit. Both faces print it after the summary.
 */
export function withheldRemovalsSentence(forecast: SyncForecast | undefined, face: SettingFace, dryRun: boolean): string | undefined {
  if (forecast === undefined || !forecast.removalsWithheld) return undefined;
  const limit = settingName('maxRemovals', face);
  return (
    `Removals withheld: this sync ${dryRun ? 'would remove' : 'would have removed'} ${forecast.removals} users (disabled, or gone from the export), ` +
    `more than its limit of ${forecast.removalLimit} (${limit}), so ${dryRun ? 'it would remove nobody' : 'nobody was removed'}. ` +
    `If they should go, ${setIt(face, `${limit} ${forecast.removals}`, `set "${limit}" to ${forecast.removals}`)}.`
  );
}
