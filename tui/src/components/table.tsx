import { Box, Text } from 'ink';
import { printable } from 'core-client/printable';
import { formatCount } from './numbers.js';
import { Tone, type ToneName } from './theme.js';

export interface TableRow {
  label: string;
  value: string | number;
  note?: string;
  tone?: ToneName;
  /** Shown before the other rows when the table is cut: it decides what the operator does next. */
  keep?: boolean;
}

export interface TableProps {
  title?: string;
  rows: readonly TableRow[];
  columns: number;
  /** Lines the table may take (title included): past them the last row says how many more there are. */
  maxRows?: number;
}

/**
 * The rows that fit in `room` lines, in their order: all of them, or the rows to keep first, then the others, and a
 * last line naming those left out.
 */
export function rowsThatFit(rows: readonly TableRow[], room: number): TableRow[] {
  if (rows.length <= room) return [...rows];
  const slots = Math.max(0, room - 1);
  const chosen = new Set<TableRow>();
  for (const row of [...rows.filter((row) => row.keep === true), ...rows.filter((row) => row.keep !== true)]) if (chosen.size < slots) chosen.add(row);
  const left = rows.filter((row) => !chosen.has(row));
  return [
    ...rows.filter((row) => chosen.has(row)),
    { label: '…', value: '', note: `${left.length} more rows: ${left.map((row) => row.label.trim()).join(', ')}` },
  ];
}

/** Two aligned columns (label, right-aligned count) and a note that takes the rest of the line. */
export function Table({ title, rows, columns, maxRows = Number.POSITIVE_INFINITY }: TableProps) {
  const labelWidth = Math.min(Math.max(12, ...rows.map((row) => row.label.length + 2)), Math.max(14, Math.floor(columns * 0.45)));
  const valueWidth = Math.max(5, ...rows.map((row) => (typeof row.value === 'number' ? formatCount(row.value) : row.value).length));
  const room = Math.max(1, maxRows - (title === undefined ? 0 : 1));
  const shown = rowsThatFit(rows, room);
  return (
    <Box flexDirection="column" width={columns}>
      {title === undefined ? null : <Text bold>{title}</Text>}
      {shown.map((row, index) => (
        <Box key={`${index}:${row.label}`} height={1}>
          <Box width={labelWidth} flexShrink={0}>
            <Text wrap="truncate-end">{`  ${printable(row.label)}`}</Text>
          </Box>
          <Box width={valueWidth} flexShrink={0} justifyContent="flex-end">
            <Text>{typeof row.value === 'number' ? formatCount(row.value) : row.value}</Text>
          </Box>
          {row.note === undefined || row.note === '' ? null : (
            <Box marginLeft={2} flexShrink={1}>
              <Text wrap="truncate-end">{row.tone === undefined ? printable(row.note) : <Tone tone={row.tone}>{row.note}</Tone>}</Text>
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}
