import { useState } from 'react';
import { Box, Text, useInput } from 'ink';
import TextInput from 'ink-text-input';
import { describe, expect, it } from 'vitest';
import { keys } from '../keys.js';
import { renderInTerminal, settle } from '../support/terminal.js';

/*
 * Why the app's text fields are not the design card's `ink-text-input` (see docs/app.md): driven the way the app is
 * driven, the component puts keys in the wrong field or loses them. Each case below asserts what the component
 * DOES; the app's own editor does what the comment beside it says (test/tui/app/input.test.tsx). Should a later
 * version of the component pass these, the test fails, and that is the moment to use it.
 */

/** Two fields as the app lays them out: ↓ or Tab moves the focus, the focused field edits. */
function TwoFields({ mountOnlyFocused, onValues }: { mountOnlyFocused: boolean; onValues: (values: string[]) => void }) {
  const [focus, setFocus] = useState(0);
  const [values, setValues] = useState(['', '']);
  onValues(values);
  useInput((_input, key) => {
    if (key.tab || key.downArrow) setFocus((at) => (at + 1) % 2);
  });
  const change = (index: number) => (value: string) => setValues((all) => all.map((old, at) => (at === index ? value : old)));
  return (
    <Box flexDirection="column">
      {values.map((value, index) =>
        mountOnlyFocused && index !== focus ? (
          <Text key={index}>{value}</Text>
        ) : (
          <TextInput key={index} value={value} focus={index === focus} onChange={change(index)} />
        ),
      )}
    </Box>
  );
}

/** The values after `input`, written as a terminal delivers it: all of it in one read when it is one string. */
async function valuesAfter(mountOnlyFocused: boolean, ...input: string[]): Promise<string[]> {
  let seen: string[] = [];
  const terminal = renderInTerminal(<TwoFields mountOnlyFocused={mountOnlyFocused} onValues={(values) => (seen = values)} />);
  await settle();
  for (const chunk of input) {
    terminal.write(chunk);
    await settle();
  }
  terminal.unmount();
  return seen;
}

describe('ink-text-input under the keys the app must handle', () => {
  for (const mountOnlyFocused of [false, true]) {
    const how = mountOnlyFocused ? 'only the focused field mounts it' : 'every field mounts it';

    it(`${how}: "ab", ↓, "cd" in one read puts "cd" in the field that lost the focus (the app: "ab" | "cd")`, async () => {
      expect(await valuesAfter(mountOnlyFocused, `ab${keys.down}cd`)).toEqual(['cd', '']);
    });

    it(`${how}: "ab", Tab, "cd" in one read types a tab into the first field (the app: "ab" | "cd")`, async () => {
      expect(await valuesAfter(mountOnlyFocused, 'ab\tcd')).toEqual(['ab\tcd', '']);
    });

    it(`${how}: "abc" and two Backspaces and "d" in one read lose keys (the app: "ad")`, async () => {
      expect(await valuesAfter(mountOnlyFocused, `abc${keys.backspace}${keys.backspace}d`)).toEqual(['d', '']);
    });
  }

  it('Home does not move its cursor, even one key at a time: "x" lands at the end (the app: "xabc")', async () => {
    expect(await valuesAfter(false, 'a', 'b', 'c', keys.home, 'x')).toEqual(['abcx', '']);
  });

  it('Delete removes the character before the cursor, as Backspace does (the app: Delete removes the one after it)', async () => {
    expect(await valuesAfter(false, 'a', 'b', 'c', keys.left, keys.left, keys.delete)).toEqual(['bc', '']);
  });
});
