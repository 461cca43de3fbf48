import { useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { sourceFormats } from 'core-client';
import { ChoiceField, cycle } from '../components/choice.js';
import { TextField } from '../components/field.js';
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
        if (result.completed !== current().source.path) edit({ path: result.completed });
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
      const next = applyTextKey(source.path, input, key);
      if (next !== undefined) {
        setCompletion(undefined);
        edit({ path: next });
      }
    }
  });

  const detectedText =
    detected.state === 'done' ? `detected: ${detected.value}` : detected.state === 'failed' ? detected.message : detected.state === 'running' ? 'detecting…' : 'type a path';
  return (
    <ScreenFrame step="Source" hints={[['Tab', form.focus === 0 ? 'complete path' : 'field'], ['↑↓', 'field'], ['←→', 'format'], ['Enter', planDone ? 'continue' : 'read the file'], ['Esc', 'back']]}>
      <Text>Which export holds the users? Firebase JSON/CSV, Auth0, NDJSON, JSON array, CSV.</Text>
      <Box flexDirection="column" marginTop={1}>
        <TextField label="Export file" value={form.path} focus={form.focus === 0} placeholder="path/to/export.json" />
        {completion !== undefined && completion.candidates.length > 1 ? (
          <Box marginLeft={18}>
            <Tone tone="muted">{completion.candidates.join('  ') + (completion.more > 0 ? `  (+${completion.more} more)` : '')}</Tone>
          </Box>
        ) : null}
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
