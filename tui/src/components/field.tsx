import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';
import { Tone } from './theme.js';

/** A labelled row; the focused one is marked with ▸ so the marker, not colour, shows where typing goes. */
export function FieldRow({ label, focus, children, width = 16 }: { label: string; focus: boolean; children: ReactNode; width?: number }) {
  return (
    <Box>
      <Text>{focus ? '▸ ' : '  '}</Text>
      <Box width={width} flexShrink={0}>
        <Tone tone={focus ? 'accent' : 'plain'} bold={focus}>
          {label}
        </Tone>
      </Box>
      <Box flexGrow={1}>{children}</Box>
    </Box>
  );
}

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  focus: boolean;
  placeholder?: string;
  width?: number;
}

export function TextField({ label, value, onChange, focus, placeholder, width }: TextFieldProps) {
  return (
    <FieldRow label={label} focus={focus} {...(width === undefined ? {} : { width })}>
      <TextInput value={value} onChange={onChange} focus={focus} showCursor={focus} {...(placeholder === undefined ? {} : { placeholder })} />
    </FieldRow>
  );
}
