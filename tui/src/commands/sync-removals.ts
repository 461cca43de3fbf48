import type { PushEvent } from 'core-client';

/** Old ids a dry run prints at most; the count says how many more there are. */
const LISTED_AT_MOST = 100;

/** The users a sync removes (or would), by old id, as its events tell them: the first ones kept, all counted. */
export class SyncRemovals {
  readonly listed: string[] = [];
  count = 0;

  readonly onEvent = (event: PushEvent): void => {
    if (event.type !== 'syncUser' || !event.user.removes) return;
    this.count += 1;
    if (this.listed.length < LISTED_AT_MOST) this.listed.push(event.user.sourceId);
  };

  /** The dry run's list, one old id a line, or '' when it removes nobody. */
  describe(): string {
    if (this.count === 0) return '';
    const more = this.count - this.listed.length;
    return (
      `Users the sync would remove (${this.count}, by old id):\n` +
      this.listed.map((sourceId) => `  ${JSON.stringify(sourceId)}\n`).join('') +
      (more > 0 ? `  … and ${more} more\n` : '')
    );
  }
}
