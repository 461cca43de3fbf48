import { describe, expect, it } from 'vitest';

// chalk decides its colour level when it is first loaded: force colours on for this file, so that the only
// thing keeping escape codes out of the frame is the app's own NO_COLOR gate.
process.env['FORCE_COLOR'] = '3';
const { render } = await import('ink-testing-library');
const { ThemeProvider, Tone, colourAllowed } = await import('../../../tui/src/components/theme.js');
const { ScreenFrame } = await import('../../../tui/src/components/screen-frame.js');

// eslint-disable-next-line no-control-regex
const colourCode = /\u001B\[(3[0-9]|9[0-7])/;

function screen(colour: boolean) {
  return render(
    <ThemeProvider colour={colour}>
      <ScreenFrame step="Review" hints={[['Esc', 'back']]}>
        <Tone tone="error">✗ failed</Tone>
      </ScreenFrame>
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
