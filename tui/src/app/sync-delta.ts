import type { SyncUserDelta, PushEvent, SyncCounts, SyncForecast } from 'core-client';

/** What Review shows before a sync: the delta's counts, its first pass, and its users one by one (removals first). */
export interface SyncDeltaView {
  counts: SyncCounts;
  forecast: SyncForecast | undefined;
  /** The users the dry run told of, removals first; at most `KEPT_PER_KIND` of each kind. */
  users: SyncUserDelta[];
  /** Users of the delta not in `users` (a big delta is kept bounded). */
  more: number;
}

/** Users kept per kind (removals, others): enough to scroll through, bounded whatever the delta's size. */
const KEPT_PER_KIND = 1_000;

/** Gathers a dry run's users as its events come: removals first, then the users leaving that stay, then the rest. */
export class SyncDeltaCollector {
  readonly #removals: SyncUserDelta[] = [];
  /** Disabled or gone, but left in the core (`--deleted keep`, or not created by the migration). */
  readonly #kept: SyncUserDelta[] = [];
  readonly #others: SyncUserDelta[] = [];
  #more = 0;

  readonly onEvent = (event: PushEvent): void => {
    if (event.type !== 'syncUser') return;
    const { user } = event;
    const leaving = user.change === 'disabled' || user.change === 'deletedInSource';
    const list = user.removes ? this.#removals : leaving ? this.#kept : this.#others;
    if (list.length < KEPT_PER_KIND) list.push(user);
    else this.#more += 1;
  };

  view(counts: SyncCounts, forecast: SyncForecast | undefined): SyncDeltaView {
    return { counts, forecast, users: [...this.#removals, ...this.#kept, ...this.#others], more: this.#more };
  }
}
