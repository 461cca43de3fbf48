import { useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { sourceFormats } from 'core-client/sources/source-format';
import { ChoiceField, cycle } from '../components/choice.js';
import { CandidateLine } from '../components/candidate-line.js';
import { TextField } from '../components/field.js';
import { cursorKeysHint, type KeyHint } from '../components/key-hints.js';
import { ScreenFrame } from '../components/screen-frame.js';
import { applyTextKey } from '../components/text-edit.js';
import { Tone } from '../components/theme.js';
import { completePath, type PathCompletion } from '../hooks/path-completion.js';
import { PlanCount } from './plan-count.js';
import { nextFocus, type FormatChoice, type SourceForm, type WalkAction, type WalkState } from './walk-state.js';

const formatChoices: readonly FormatChoice[] = ['auto', ...sourceFormats];

export interface SourceScreenProps {
  state: WalkState;
  current: () => WalkState;
  cwd: string;
  /** Whether the plan in the state was computed for the current inputs. */
  planCurrent: boolean;
  dispatch: (action: WalkAction) => void;
}

export function SourceScreen({ state, current, cwd, planCurrent, dispatch }: SourceScreenProps) {
  const [completion, setCompletion] = useState<PathCompletion | undefined>(undefined);
  const { source: form, detectedFormat: detected, plan } = state;
  const edit = (patch: Partial<SourceForm>) => dispatch({ type: 'editSource', patch });
  const planDone = planCurrent && plan?.summary !== undefined;

  useInput((input, key) => {
    const { source } = current();
    if (key.escape) return dispatch({ type: 'back' });
    if (source.focus === 0 && key.tab && !key.shift) {
      void completePath(source.path, cwd).then((result) => {
        setCompletion(result);
        if (result.completed !== current().source.path) edit({ path: result.completed, cursorFromEnd: 0 });
      });
      return;
    }
    if (key.tab || key.downArrow || key.upArrow) {
      setCompletion(undefined);
      return edit({ focus: nextFocus(source.focus, 2, key.upArrow || key.shift ? -1 : 1) });
    }
    if (source.focus === 1 && (key.leftArrow || key.rightArrow)) return edit({ format: cycle(formatChoices, source.format, key.leftArrow ? -1 : 1) });
    if (key.return) {
      if (source.path.trim() === '') return;
      const latest = current();
      if (latest.planRequested && latest.plan?.summary !== undefined && planCurrent) return dispatch({ type: 'goTo', step: 'hashes' });
      return dispatch({ type: 'requestPlan' });
    }
    if (source.focus === 0) {
      const next = applyTextKey({ value: source.path, cursorFromEnd: source.cursorFromEnd }, input, key);
      if (next !== undefined) {
        if (next.value !== source.path) setCompletion(undefined);
        edit({ path: next.value, cursorFromEnd: next.cursorFromEnd });
      }
    }
  });

  const detectedText =
    detected.state === 'done'
      ? `detected: ${detected.value}`
      : detected.state === 'failed'
        ? detected.message
        : detected.state === 'running'
          ? 'detecting…'
          : 'type a path';
  const focusKeys: KeyHint[] =
    form.focus === 0
      ? [['Tab', 'complete path'], ['↑↓', 'field'], cursorKeysHint]
      : [
          ['Tab/↑↓', 'field'],
          ['←→', 'format'],
        ];
  return (
    <ScreenFrame step="Source" hints={[...focusKeys, ['Enter', planDone ? 'continue' : 'read the file'], ['Esc', 'back']]}>
      <Text>Which export holds the users? Firebase JSON/CSV, Auth0, NDJSON, JSON array, CSV.</Text>
      <Box flexDirection="column" marginTop={1}>
        <TextField label="Export file" value={form.path} focus={form.focus === 0} cursorFromEnd={form.cursorFromEnd} placeholder="path/to/export.json" />
        {completion !== undefined && completion.candidates.length > 1 ? <CandidateLine candidates={completion.candidates} more={completion.more} /> : null}
        <ChoiceField label="Format" value={form.format === 'auto' ? `auto (${detectedText})` : form.format} focus={form.focus === 1} />
      </Box>
      <Box flexDirection="column" marginTop={1}>
        {plan === undefined || !state.planRequested ? (
          <Tone tone="muted">Enter reads the whole file once and counts the plan; nothing is sent.</Tone>
        ) : (
          <PlanCount plan={plan} current={planCurrent} />
        )}
      </Box>
    </ScreenFrame>
  );
}
