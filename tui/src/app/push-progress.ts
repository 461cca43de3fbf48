import type { PushCounts, PushEvent } from 'core-client';

/** What the push screen shows, folded from the engine's events (which come a few times a second at most). */
export interface PushProgressView {
  done: number;
  total: number | undefined;
  ratePerSecond: number;
  etaSeconds: number | undefined;
  counts: PushCounts | undefined;
  concurrency: number;
  dryRun: boolean;
  paused: boolean;
  /** The latest notable thing the engine said: a probe, a push-back, a stop. */
  note: string | undefined;
  /** A probe's note is about the first request only: progress after it replaces it. */
  noteIsProbe: boolean;
  stopping: boolean;
}

export function initialPushView(): PushProgressView {
  return {
    done: 0,
    total: undefined,
    ratePerSecond: 0,
    etaSeconds: undefined,
    counts: undefined,
    concurrency: 0,
    dryRun: false,
    paused: false,
    note: undefined,
    noteIsProbe: false,
    stopping: false,
  };
}

export function foldPushEvent(view: PushProgressView, event: PushEvent): PushProgressView {
  switch (event.type) {
    case 'started':
      return { ...view, total: event.total, concurrency: event.concurrency, dryRun: event.dryRun };
    case 'progress':
      return {
        ...view,
        done: event.done,
        total: event.total ?? view.total,
        ratePerSecond: event.ratePerSecond,
        etaSeconds: event.etaSeconds,
        counts: event.counts,
        concurrency: event.concurrency,
        ...(view.noteIsProbe && event.done > 0 ? { note: undefined, noteIsProbe: false } : {}),
      };
    case 'probe':
      return { ...view, note: withoutPaths(event.message), noteIsProbe: true };
    case 'note':
    case 'createdWithOtherHash':
      return { ...view, note: withoutPaths(event.message), noteIsProbe: false };
    case 'pushBack':
      return {
        ...view,
        noteIsProbe: false,
        concurrency: event.concurrency,
        note: `the core pushed back${event.status === undefined ? '' : ` (HTTP ${event.status})`}: concurrency now ${event.concurrency}`,
      };
    case 'signerKeyMissing':
    case 'authRejected':
      return { ...view, note: event.message, noteIsProbe: false, stopping: true };
    case 'stopping':
      return { ...view, note: event.message, noteIsProbe: false, stopping: true };
    case 'finished':
      return { ...view, counts: event.summary, done: event.summary.total - event.summary.notAttempted };
    case 'syncUser':
      // The users of the delta are Review's (before the run); the progress counts them.
      return view;
  }
}

/** The push screen names the file once; notes keep only file names. */
function withoutPaths(text: string): string {
  return text.replace(/(?:\/[^\s,/()]+)+\/([^\s,/()]+)/g, '$1');
}

/** "1m 05s", "42s", "—": short enough for the progress line. */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '—';
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  if (minutes === 0) return `${rest}s`;
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes}m ${String(rest).padStart(2, '0')}s`;
  return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
}
