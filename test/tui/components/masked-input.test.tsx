import { useState } from 'react';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Secret } from 'core-client';
import { MaskedInput } from '../../../tui/src/components/masked-input.js';
import { keys, press } from '../keys.js';

function Harness({ onValue }: { onValue: (value: Secret) => void }) {
  const [value, setValue] = useState(new Secret(''));
  return (
    <>
      <MaskedInput
        value={value}
        focus
        onChange={(next) => {
          setValue(next);
          onValue(next);
        }}
      />
      <Text>end</Text>
    </>
  );
}

describe('MaskedInput', () => {
  it('keeps what is typed and shows only ***, whatever its length', async () => {
    let latest = new Secret('');
    const app = render(<Harness onValue={(value) => (latest = value)} />);
    expect(app.lastFrame()).toContain('(empty)');
    await press(app, 's', 'e', 'c', 'r', 'e', 't');
    expect(latest.reveal()).toBe('secret');
    const short = app.lastFrame() ?? '';
    await press(app, 'longer-and-longer');
    expect(latest.reveal()).toBe('secretlonger-and-longer');
    expect(app.lastFrame()).toBe(short);
    for (const frame of app.frames) expect(frame).not.toMatch(/secret|longer|\*{4}/);
    app.unmount();
  });

  it('takes Backspace and Ctrl+U, and keeps a pasted key without its line ending', async () => {
    let latest = new Secret('');
    const app = render(<Harness onValue={(value) => (latest = value)} />);
    await press(app, 'abc', keys.backspace);
    expect(latest.reveal()).toBe('ab');
    await press(app, keys.ctrlU);
    expect(latest.reveal()).toBe('');
    expect(app.lastFrame()).toContain('(empty)');
    await press(app, 'pasted-key\r\n');
    expect(latest.reveal()).toBe('pasted-key');
    app.unmount();
  });
});
