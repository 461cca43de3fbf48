import { Text } from 'ink';
import { Clipped, clipToLines, wrappedLineCount } from '../components/clipped.js';
import { Tone } from '../components/theme.js';
import type { CheckResult, Outcome } from './walk-state.js';

const width = 78;
const maxLines = 2;

/** The verdict as shown: a symbol and the sentence, at most two lines (the hint to act on comes early in it). */
function verdict(check: Outcome<CheckResult>): { symbol: string; tone: 'ok' | 'error' | 'plain'; sentence: string } | undefined {
  if (check.state === 'idle') return undefined;
  if (check.state === 'running') return { symbol: '', tone: 'plain', sentence: 'checking…' };
  if (check.state === 'failed') return { symbol: '✗ ', tone: 'error', sentence: clipToLines(`✗ ${check.message}`, width, maxLines).slice(2) };
  const symbol = check.value.match ? '✓ ' : '✗ ';
  return { symbol, tone: check.value.match ? 'ok' : 'error', sentence: clipToLines(`${symbol}${check.value.sentence}`, width, maxLines).slice(2) };
}

/** How many lines the check's verdict takes, for the screen's 24-line budget. */
export function checkLineCount(check: Outcome<CheckResult>): number {
  const shown = verdict(check);
  return shown === undefined ? 0 : wrappedLineCount(`${shown.symbol}${shown.sentence}`, width);
}

/** The verdict of the known-password check, in words and a symbol. */
export function CheckLine({ check }: { check: Outcome<CheckResult> }) {
  const shown = verdict(check);
  if (shown === undefined) return null;
  return (
    <Clipped lines={checkLineCount(check)} marginLeft={2}>
      <Text wrap="wrap">
        <Tone tone={shown.tone}>{shown.symbol}</Tone>
        {shown.sentence}
      </Text>
    </Clipped>
  );
}
