import { Box, Text } from 'ink';

export interface TableRow {
  label: string;
  value: string | number;
  note?: string;
}

/** Two aligned columns (label, right-aligned number or text) and an optional note, within 80 columns. */
export function Table({ title, rows, labelWidth = 26, width = 78 }: { title?: string; rows: readonly TableRow[]; labelWidth?: number; width?: number }) {
  return (
    <Box flexDirection="column" width={width}>
      {title === undefined ? null : <Text bold>{title}</Text>}
      {rows.map((row) => (
        <Box key={`${row.label}:${row.note ?? ''}`}>
          <Box width={labelWidth} flexShrink={0}>
            <Text wrap="truncate-end">{`  ${row.label}`}</Text>
          </Box>
          <Box width={9} flexShrink={0} justifyContent="flex-end">
            <Text>{String(row.value)}</Text>
          </Box>
          {row.note === undefined ? null : (
            <Box marginLeft={1} flexShrink={1}>
              <Text wrap="truncate-end">{row.note}</Text>
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}
