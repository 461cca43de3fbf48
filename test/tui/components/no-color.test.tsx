import { describe, expect, it } from 'vitest';

// chalk decides its colour level when it is first loaded: force colours on for this file, so that the only
// thing keeping escape codes out of the frame is the app's own NO_COLOR gate.
process.env['FORCE_COLOR'] = '3';
const { render } = await import('ink-testing-library');
const { ThemeProvider, Tone, colourAllowed } = await import('../../../tui/src/components/theme.js');
const { Frame } = await import('../../../tui/src/components/frame.js');
const { FieldList } = await import('../../../tui/src/components/field-list.js');

// eslint-disable-next-line no-control-regex
const colourCode = /\u001B\[(3[0-9]|9[0-7])/;

function screen(colour: boolean) {
  return render(
    <ThemeProvider colour={colour}>
      <Frame steps={['Connect', 'Source', 'Hashes', 'Review']} current={3} columns={80} rows={10} hints={[['Esc', 'back']]}>
        <Tone tone="error">✗ failed</Tone>
      </Frame>
    </ThemeProvider>,
  );
}

describe('NO_COLOR', () => {
  it('is honoured when set to anything but the empty string', () => {
    expect(colourAllowed({})).toBe(true);
    expect(colourAllowed({ NO_COLOR: '' })).toBe(true);
    expect(colourAllowed({ NO_COLOR: '1' })).toBe(false);
  });

  it('removes every colour from a screen, keeping the words and symbols', () => {
    expect(screen(true).lastFrame()).toMatch(colourCode);
    const plain = screen(false).lastFrame() ?? '';
    expect(plain).not.toMatch(colourCode);
    expect(plain).toContain('✗ failed');
    expect(plain).toContain('[4 Review]');
  });
});

describe('the text cursor', () => {
  const field = (colour: boolean) =>
    render(
      <ThemeProvider colour={colour}>
        <FieldList
          fields={[{ id: 'file', kind: 'path', label: 'Export file', value: 'users.json' }]}
          focus={0}
          editing
          cursorFromEnd={5}
          columns={80}
          maxRows={1}
        />
      </ThemeProvider>,
    ).lastFrame() ?? '';

  it('is the character under it in inverse video with colour, and a ▏ bar before it under NO_COLOR', () => {
    expect(field(true)).toContain('users\u001B[7m.\u001B[27mjson');
    expect(field(false)).toContain('users▏.json');
    expect(field(false)).not.toContain('\u001B[7m');
  });
});
