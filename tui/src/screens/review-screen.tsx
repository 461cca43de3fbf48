import { Box, Text, useInput } from 'ink';
import { ChoiceField } from '../components/choice.js';
import { TextField } from '../components/field.js';
import { cursorKeysHint, type KeyHint } from '../components/key-hints.js';
import { ScreenFrame } from '../components/screen-frame.js';
import { applyTextKey } from '../components/text-edit.js';
import { Tone } from '../components/theme.js';
import { PlanCount } from './plan-count.js';
import { PlanTable } from './plan-table.js';
import { nextFocus, type ReviewForm, type WalkAction, type WalkState } from './walk-state.js';

const textFields = ['concurrency', undefined, 'journalPath', 'reportPath', 'credentialsPath'] as const;
const dryRunField = 1;

export function concurrencyValid(text: string): boolean {
  return /^[1-9][0-9]{0,3}$/.test(text.trim());
}

export interface ReviewScreenProps {
  state: WalkState;
  current: () => WalkState;
  planCurrent: boolean;
  /** Where the push would go, e.g. "http://127.0.0.1:3567 (tenant public)". */
  target: string;
  dispatch: (action: WalkAction) => void;
  onStart: () => void;
}

export function ReviewScreen({ state, current, planCurrent, target, dispatch, onStart }: ReviewScreenProps) {
  const { review: form, plan } = state;
  const edit = (patch: Partial<ReviewForm>) => dispatch({ type: 'editReview', patch });

  useInput((input, key) => {
    const { review } = current();
    if (review.confirming) {
      if (input === 'y' || input === 'Y') {
        edit({ confirming: false });
        onStart();
      } else if (input === 'n' || input === 'N' || key.escape) edit({ confirming: false });
      return;
    }
    if (key.escape) return dispatch({ type: 'back' });
    if (key.tab || key.downArrow || key.upArrow) return edit({ focus: nextFocus(review.focus, textFields.length, key.upArrow || key.shift ? -1 : 1) });
    if (review.focus === dryRunField && (input === ' ' || key.leftArrow || key.rightArrow)) return edit({ dryRun: !review.dryRun });
    if (key.return) {
      if (planCurrent && current().plan?.summary !== undefined && concurrencyValid(review.concurrency)) edit({ confirming: true });
      return;
    }
    const field = textFields[review.focus];
    if (field === undefined) return;
    const next = applyTextKey({ value: review[field], cursorFromEnd: review.cursorFromEnd }, input, key);
    if (next !== undefined) edit({ [field]: next.value, cursorFromEnd: next.cursorFromEnd });
  });

  const ready = planCurrent && plan?.summary !== undefined;
  const operations = plan?.summary === undefined ? 0 : plan.summary.operations - plan.summary.rejected;
  const editing = !form.confirming;
  const focusKeys: KeyHint = form.focus === dryRunField ? ['Space/←→', 'toggle dry run'] : cursorKeysHint;
  return (
    <ScreenFrame
      step="Review"
      hints={
        form.confirming
          ? [
              ['y', form.dryRun ? 'start the dry run' : 'send to the core'],
              ['n/Esc', 'not yet'],
            ]
          : [['Tab/↑↓', 'field'], focusKeys, ['Enter', 'start…'], ['Esc', 'back']]
      }
    >
      {ready && plan?.summary !== undefined ? (
        <PlanTable summary={plan.summary} />
      ) : plan === undefined ? (
        <Text>The plan has not been read yet.</Text>
      ) : (
        <PlanCount plan={plan} current={planCurrent} />
      )}
      <Box flexDirection="column" marginTop={1}>
        <TextField label="concurrency" value={form.concurrency} focus={editing && form.focus === 0} cursorFromEnd={form.cursorFromEnd} />
        <ChoiceField label="dry run" value={form.dryRun ? 'yes: nothing is written to the core' : 'no'} focus={editing && form.focus === dryRunField} />
        <TextField label="journal" value={form.journalPath} focus={editing && form.focus === 2} cursorFromEnd={form.cursorFromEnd} />
        <TextField label="report" value={form.reportPath} focus={editing && form.focus === 3} cursorFromEnd={form.cursorFromEnd} />
        <TextField
          label="credentials"
          value={form.credentialsPath}
          focus={editing && form.focus === 4}
          cursorFromEnd={form.cursorFromEnd}
          placeholder="optional: a file of 'email password' lines"
        />
      </Box>
      {concurrencyValid(form.concurrency) ? null : <Tone tone="error">✗ concurrency must be a whole number from 1 to 9999</Tone>}
      {form.confirming ? (
        <Text wrap="wrap">
          <Tone tone="warning" bold>
            {form.dryRun
              ? `Dry run against ${target}: nothing will be written. Start? (y/n)`
              : `Send ${operations.toLocaleString('en-US')} operations to ${target}? (y/n)`}
          </Tone>
        </Text>
      ) : (
        <Tone tone="muted">Nothing is sent until you confirm.</Tone>
      )}
    </ScreenFrame>
  );
}
