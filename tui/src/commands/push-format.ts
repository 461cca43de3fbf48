import {
  describeCredentialsProof,
  describeRetries,
  describeRoles,
  describeSteps,
  describeSyncCounts,
  formatCountsSum,
  outcomeLabels,
  outcomesShown,
  pushOutcomes,
  type PushSummary,
  type CredentialCheck,
  type PushEvent,
} from 'core-client';

type ProgressEvent = Extract<PushEvent, { type: 'progress' }>;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}m${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** One line: done/total, rate, ETA, concurrency and counts by outcome. Never a record's data. */
export function formatProgress(event: ProgressEvent, command: 'push' | 'sync' = 'push'): string {
  const { counts } = event;
  const of = event.total === undefined ? `${event.done}` : `${event.done}/${event.total}`;
  const percent = event.total === undefined || event.total === 0 ? '' : ` ${((event.done / event.total) * 100).toFixed(1)}%`;
  const eta = event.etaSeconds === undefined ? '' : ` ETA ${duration(event.etaSeconds)}`;
  const done = counts.imported + counts.thirdPartyCreated + counts.passwordlessCreated;
  const existed = counts.alreadyExisted + counts.thirdPartyExisting + counts.passwordlessExisting;
  return (
    `${command} ${of}${percent} ${Math.round(event.ratePerSecond)}/s${eta} concurrency ${event.concurrency}` +
    ` | new ${done} existed ${existed} rejected ${counts.rejected} failed ${counts.failed} skipped ${counts.skipped}` +
    (command === 'sync' ? ` updated ${counts.updated} removed ${counts.removed}` : '') +
    // Only with a login-time migration: users written to its waiting store.
    (counts.parkedForLogin > 0 ? ` parked ${counts.parkedForLogin}` : '')
  );
}

export function formatSummary(summary: PushSummary): string {
  const width = Math.max(...pushOutcomes.map((outcome) => outcomeLabels[outcome].length));
  const lines = [summary.dryRun ? 'Dry run: nothing was written to the core.' : summary.sync === undefined ? 'Push summary:' : 'Sync summary:'];
  if (summary.sync !== undefined) lines.push(...describeSyncCounts(summary.sync).map((line) => `  ${line}`), '  Operations sent:');
  for (const outcome of outcomesShown(summary)) {
    const label = summary.dryRun && outcome === 'notAttempted' ? 'would be sent' : outcomeLabels[outcome];
    lines.push(`  ${label.padEnd(width)}  ${summary[outcome]}`);
  }
  lines.push(`  ${formatCountsSum(summary)}`);
  const steps = describeSteps(summary);
  if (steps !== undefined) lines.push(`  ${steps}`);
  const retries = describeRetries(summary);
  if (retries !== undefined) lines.push(`  ${retries}`);
  describeRoles(summary).forEach((line, index) => lines.push(index === 0 ? `  ${line}` : `  Note: ${line}`));
  if (summary.existingUntouched > 0) {
    lines.push(
      `  Note: ${summary.existingUntouched} password user(s) were already in the core and left untouched (--existing replace would replace their hash).`,
    );
  }
  if (summary.alreadyExisted > 0) {
    lines.push(`  Note: ${summary.alreadyExisted} password user(s) already existed; the core replaced their password hash with the imported one.`);
  }
  if (summary.credentials !== undefined) lines.push(`  ${describeCredentialsProof(summary.credentials)}`);
  if (summary.reportPath !== undefined) lines.push(`  Report (every record not imported, and why): ${summary.reportPath}`);
  if (summary.journalPath !== undefined && !summary.dryRun) lines.push(`  Journal: ${summary.journalPath}`);
  if (summary.stoppedEarly !== undefined) lines.push(`Stopped early: ${summary.stoppedEarly.message}`);
  return `${lines.join('\n')}\n`;
}

export function formatCredentialChecks(checks: CredentialCheck[], stage: 'local' | 'signIn'): string {
  const lines = checks.map((check) => {
    const result = stage === 'local' ? check.local : (check.signIn ?? check.local);
    const notes = check.notes.length === 0 ? '' : ` (${check.notes.join('; ')})`;
    return `  ${check.email} (line ${check.line}): ${result}${notes}`;
  });
  const title = stage === 'local' ? 'Known accounts checked against their planned hash:' : 'Known accounts signed in at the core:';
  return `${title}\n${lines.join('\n')}\n`;
}
