import { Box, Text } from 'ink';
import type { SyncUserDelta, SyncCounts } from 'core-client';
import { printable } from 'core-client/printable';
import { withheldRemovalsSentence, type DeletedPolicy } from 'core-client/settings';
import { formatCount } from '../components/numbers.js';
import { Tone } from '../components/theme.js';
import { wrapText } from '../components/wrap.js';
import type { AppState } from '../app/state.js';
import type { SyncDeltaView } from '../app/sync-delta.js';

const TITLE = 'A sync: the newer export against the journal of the earlier run';

/** The delta's users by what happens to them, in one line (the users themselves follow, one a row). */
export function syncCountsLine(sync: SyncCounts): string {
  const parts = [
    `new ${formatCount(sync.new)}${sync.reEnabled > 0 ? ` (${formatCount(sync.reEnabled)} re-enabled)` : ''}`,
    `changed ${formatCount(sync.changed)}${sync.passwordResent > 0 ? ` (${formatCount(sync.passwordResent)} password re-sent)` : ''}`,
    `disabled ${formatCount(sync.disabled)}`,
    `deleted in source ${formatCount(sync.deletedInSource)}`,
    `unchanged ${formatCount(sync.unchanged)}`,
    `refused by the plan ${formatCount(sync.refused)}`,
  ];
  return parts.join(' · ');
}

export interface DeltaRow {
  action: string;
  sourceId: string;
  detail: string;
}

/** One user of the delta as Review lists it: what the sync does, the old id, and why. */
export function deltaRow(user: SyncUserDelta, deleted: DeletedPolicy, withheld: boolean): DeltaRow {
  const sourceId = JSON.stringify(user.sourceId);
  switch (user.change) {
    case 'new':
      return { action: 'create', sourceId, detail: 'new in the export' };
    case 'reEnabled':
      return { action: 'create', sourceId, detail: 're-enabled: the same id again' };
    case 'changed':
      return { action: 'change', sourceId, detail: user.groups.map((group) => (group === 'phoneNumber' ? 'phone number' : group)).join(', ') };
    case 'disabled':
    case 'deletedInSource': {
      const why = user.change === 'disabled' ? 'disabled in the old system' : 'gone from the export';
      if (user.removes) return { action: withheld ? 'withheld' : 'remove', sourceId, detail: withheld ? `${why}: over the removal limit` : why };
      const kept = user.change === 'deletedInSource' && deleted === 'keep' ? 'left in the core (setting: keep)' : 'in the core before the migration: left';
      return { action: 'keep', sourceId, detail: `${why}: ${kept}` };
    }
  }
}

/** Rows the list may take at most, and how far it scrolled: the window of users shown. */
export function deltaWindow(view: SyncDeltaView, scroll: number, room: number): { first: number; rows: SyncUserDelta[] } {
  const first = Math.min(Math.max(0, scroll), Math.max(0, view.users.length - room));
  return { first, rows: view.users.slice(first, first + room) };
}

/** Which users the window shows, of how many, and how to see the others. */
function listFooter(view: SyncDeltaView, first: number, shown: number, room: number): string {
  const listed = view.users.length;
  if (listed === 0) return 'no user to create, change or remove';
  const notListed = view.more > 0 ? ` (and ${formatCount(view.more)} more not listed)` : '';
  const scroll = listed > room ? ' · PgUp/PgDn scroll' : '';
  return `users ${formatCount(first + 1)}–${formatCount(first + shown)} of ${formatCount(listed)}${notListed}${scroll}`;
}

/** Review's view of a sync: its counts, the removal limit when it is passed, and the users one by one, removals first. */
export function SyncDelta({ state, columns, rows }: { state: AppState; columns: number; rows: number }) {
  const preview = state.syncPreview;
  if (preview.state !== 'done') {
    const text =
      preview.state === 'running'
        ? 'Comparing the newer export with the journal (a dry run: nothing is sent)…'
        : preview.state === 'failed'
          ? `✗ ${preview.message}`
          : 'Enter works out what changed since the journal (a dry run: nothing is sent).';
    return (
      <Box flexDirection="column">
        <Text bold>{TITLE}</Text>
        {wrapText(text, columns).map((line) => (
          <Text key={line}>{line}</Text>
        ))}
      </Box>
    );
  }
  const view = preview.value;
  const withheld = view.forecast?.removalsWithheld === true;
  const head = wrapText(syncCountsLine(view.counts), columns);
  const warning = wrapText(withheldRemovalsSentence(view.forecast, 'app', true) ?? '', columns).filter((line) => line !== '');
  const room = Math.max(1, rows - 1 - head.length - warning.length - 1);
  const { first, rows: shown } = deltaWindow(view, state.deltaScroll, room);
  const idWidth = Math.min(Math.max(8, ...shown.map((user) => JSON.stringify(user.sourceId).length)), Math.floor(columns * 0.4));
  const footer = listFooter(view, first, shown.length, room);
  return (
    <Box flexDirection="column" width={columns}>
      <Text bold>{TITLE}</Text>
      {head.map((line) => (
        <Text key={line}>{line}</Text>
      ))}
      {warning.map((line) => (
        <Tone key={line} tone="warning">
          {line}
        </Tone>
      ))}
      {shown.map((user, index) => {
        const row = deltaRow(user, state.draft.deleted, withheld);
        return (
          <Box key={`${first + index}`} height={1}>
            <Box width={11} flexShrink={0}>
              <Text wrap="truncate-end">{`  ${row.action}`}</Text>
            </Box>
            <Box width={idWidth + 2} flexShrink={0}>
              <Text wrap="truncate-end">{printable(row.sourceId)}</Text>
            </Box>
            <Box flexShrink={1}>
              <Text wrap="truncate-end">{printable(row.detail)}</Text>
            </Box>
          </Box>
        );
      })}
      <Text dimColor>{`  ${footer}`}</Text>
    </Box>
  );
}
