import { Box, Text } from 'ink';
import { Tone } from './theme.js';

/** The candidates that fit in `room` columns, the others counted: a completion list never takes a second line. */
export function fitCandidates(candidates: readonly string[], more: number, room: number): string {
  const shown: string[] = [];
  for (const [index, candidate] of candidates.entries()) {
    const left = candidates.length - index - 1 + more;
    const line = [...shown, candidate].join('  ') + (left > 0 ? `  (+${left} more)` : '');
    if (line.length > room && shown.length > 0) break;
    shown.push(candidate);
  }
  const hidden = candidates.length - shown.length + more;
  return shown.join('  ') + (hidden > 0 ? `  (+${hidden} more)` : '');
}

/** Completion candidates under a field (aligned with its value), on one line. */
export function CandidateLine({ candidates, more = 0 }: { candidates: readonly string[]; more?: number }) {
  return (
    <Box marginLeft={18}>
      <Text wrap="truncate-end">
        <Tone tone="muted">{fitCandidates(candidates, more, 62)}</Tone>
      </Text>
    </Box>
  );
}
