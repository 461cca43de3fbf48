import { type JournalOverview, type RunOverview, RollbackCountsSchema, type RollbackCounts, type RunEnd, outcomeLabels, pushOutcomes } from 'core-client';

const rollbackLabels: Record<keyof RollbackCounts, string> = {
  created: 'created by the migration',
  removed: 'removed',
  alreadyRemoved: 'removed by an earlier rollback',
  removedBySync: 'removed by a sync',
  leftAlone: 'left alone (old id reused)',
  failed: 'failed',
  notAttempted: 'not attempted',
  uncertain: 'uncertain',
};

const endWords: Partial<Record<RunEnd, string>> = {
  complete: 'complete',
  interrupted: 'interrupted',
  coreUnreachable: 'gave up (core unreachable)',
  tlsFailed: 'stopped (no TLS connection)',
};

/** `journal show` as lines: the journal, its users, then its runs oldest first. Ids and counts only. */
export function formatJournalOverview(overview: JournalOverview): string {
  const { users } = overview;
  const lines = [
    `Journal ${overview.path}`,
    `  version       ${overview.version}${overview.runsRecorded ? '' : ' (written by an older core-migrate: its push and sync runs were not recorded)'}`,
    `  started       ${overview.createdAt}`,
    `  export        ${overview.source.name === undefined ? '' : `${overview.source.name} `}(fingerprint ${overview.source.fingerprint})`,
    `  core          ${overview.target}`,
    `  lines         ${overview.lines}${overview.tornLastLine ? ' (the last one torn: a run was killed mid-write, or is writing it now)' : ''}`,
    `Users this migration created: ${users.created}; removed by a sync ${users.removedBySync}, by a rollback ${users.removedByRollback}; ` +
      `still on the core ${users.held}`,
  ];
  if (users.uncertain > 0) {
    lines.push(
      `  ${users.uncertain} creation(s) were sent with no answer journalled (a run killed mid-request, or one that stopped on the answer): no id is known; resuming the push finds out and records them.`,
    );
  }
  lines.push(`Rolled back: ${rollbackWords(overview)}`);
  if (overview.lock !== undefined) {
    const { lock } = overview;
    lines.push(
      lock.running
        ? `Locked by ${holderWords(lock.command)} now running (process ${lock.pid} on ${lock.host}, since ${lock.startedAt}).`
        : `A lock left by process ${lock.pid} (since ${lock.startedAt}), which is gone: the next run takes it over.`,
    );
  }
  lines.push(overview.runs.length === 0 ? 'Runs: none recorded.' : 'Runs (oldest first):');
  for (const run of overview.runs) lines.push(...runLines(run));
  return `${lines.join('\n')}\n`;
}

/** A push and a sync take the lock alike (as "push"); a rollback names itself. */
export function holderWords(command: 'push' | 'rollback' | undefined): string {
  return command === 'rollback' ? 'a rollback' : 'a push or sync';
}

function rollbackWords(overview: JournalOverview): string {
  const { state, recordPath } = overview.rollback;
  if (state === 'none') return 'no';
  if (state === 'complete') return `yes (removals recorded in ${recordPath}); a push refuses this journal: pass a new --journal to migrate again`;
  return `begun, not finished (removals recorded in ${recordPath}); run the same rollback again to finish it`;
}

function runLines(run: RunOverview): string[] {
  const source = run.command === 'rollback' ? '' : ` ${run.source}`;
  const head = `  ${run.command.padEnd(8)} ${run.startedAt}`;
  if (run.ended === undefined) {
    return [`${head}  ${run.underWay ? 'under way (holds the lock)' : 'no end recorded (killed, or stopped by an error it reported)'}${source}`];
  }
  const withheld = run.command !== 'rollback' && run.ended.syncGuard?.removalsWithheld === true;
  const stopped = endWords[run.ended.how] ?? `stopped (${run.ended.how})`;
  const how = withheld && run.ended.how === 'complete' ? 'ran to its end, its removals withheld (exit 1)' : stopped;
  const lines = [`${head} → ${run.ended.at}  ${how}${source}`];
  if (run.command === 'rollback') {
    const counts = run.ended.counts;
    const parts = RollbackCountsSchema.keyof()
      .options.filter((name) => (counts[name] ?? 0) > 0)
      .map((name) => `${rollbackLabels[name]} ${counts[name] ?? 0}`);
    lines.push(`    ${parts.length === 0 ? 'nothing to remove' : parts.join(', ')}`);
    return lines;
  }
  const counts = run.ended.counts;
  const parts = pushOutcomes.filter((outcome) => (counts[outcome] ?? 0) > 0).map((outcome) => `${outcomeLabels[outcome]} ${counts[outcome] ?? 0}`);
  lines.push(`    ${parts.length === 0 ? 'no operation' : parts.join(', ')}; ${counts.total ?? 0} operations`);
  const sync = run.ended.sync;
  if (sync !== undefined) {
    lines.push(
      `    users: ${sync.new ?? 0} new, ${sync.changed ?? 0} changed, ${sync.disabled ?? 0} disabled, ${sync.unchanged ?? 0} unchanged, ` +
        `${sync.deletedInSource ?? 0} deleted in source (${sync.removed ?? 0} removed)`,
    );
  }
  const guard = run.ended.syncGuard;
  if (withheld && guard !== undefined) {
    // Withheld by a sync that stopped early too: the stop is its end, and the removals were still not made.
    lines.push(
      `    removals withheld: ${guard.removals ?? '?'} would have been removed, more than the limit of ${guard.removalLimit ?? '?'}: none was removed`,
    );
  }
  return lines;
}
