import { appTestBed } from '../support/app-bed.js';
import { describe, expect, it } from 'vitest';
import type { MigrationSettingsInput } from '../../../core-client/src/settings/settings.js';
import { keysOf } from '../../../tui/src/app/keys.js';
import { keys } from '../keys.js';
import { focusOn, focusedLine, press, settle, waitFor, type Terminal } from '../support/terminal.js';

const bed = appTestBed('input');

function open(input: MigrationSettingsInput = {}): Terminal {
  return bed.open(input);
}

describe('keys that arrive together', () => {
  it('splits one read of text with Enter and Tab into the same keys typed one by one', () => {
    const presses = keysOf('ab\tc\r', { ...keysOf('x', {} as never)[0]?.key } as never);
    expect(presses.map((press) => (press.key.tab ? 'Tab' : press.key.return ? 'Enter' : press.input))).toEqual(['a', 'b', 'Tab', 'c', 'Enter']);
  });

  it('three Backspaces in one read delete three characters', async () => {
    const app = open({ file: '' });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, 'Source]');
    await press(app, 'abcdef');
    app.write(`${keys.backspace}${keys.backspace}${keys.backspace}`);
    await settle(60);
    expect(focusedLine(app.lastFrame())).toMatch(/export file +abc▏? *$/);
  });

  it('Home, then End and Backspace in one read, deletes the last character', async () => {
    const app = open({ file: '' });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, 'Source]');
    await press(app, 'users.jsonx', keys.home);
    app.write(`${keys.end}${keys.backspace}`);
    await settle(60);
    expect(focusedLine(app.lastFrame())).toContain('users.json');
    expect(focusedLine(app.lastFrame())).not.toContain('jsonx');
  });

  it('two arrows in one read move the focus two fields, and a burst of text goes to the field the focus is on', async () => {
    const app = open({ file: 'users.json', hashConfig: 'hash_config.txt' });
    await waitFor(app, 'Where is the core?');
    app.write(`${keys.down}${keys.down}`);
    await settle(60);
    expect(focusedLine(app.lastFrame())).toContain('tenant');
    app.write(`public${keys.tab}public`);
    await settle(60);
    expect(app.lastFrame()).toMatch(/tenant +public/);
    expect(focusedLine(app.lastFrame())).toMatch(/app +public/);
  });

  it('Enters in one read go to the screen the state says is current, never to one being left', async () => {
    const app = open({ file: 'users.json', hashConfig: 'hash_config.txt' });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, 'Source]');
    await press(app, keys.enter);
    await waitFor(app, 'Hash families in the file');
    // Hashes → Identity → Review in one read.
    app.write(`${keys.enter}${keys.enter}`);
    await waitFor(app, 'Nothing is sent until you confirm.');
    // Enter asks, y sends, q (in the same read) stops safely: each key reaches the screen it was meant for.
    bed.core().faults.setLatencyMs(150);
    app.write(`${keys.enter}y`);
    await waitFor(app, 'Push]');
    app.write('q');
    await waitFor(app, (frame) => frame.includes('Push stopped early.') || frame.includes('Push finished.'), 20_000);
    expect(app.lastFrame()).toContain('Summary]');
    bed.core().faults.setLatencyMs(0);
  }, 30_000);

  it('a paste goes into the focused field whole, one line, not as keys', async () => {
    const app = open({ file: '' });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, 'Source]');
    app.paste('users.json\n');
    await settle(60);
    expect(focusedLine(app.lastFrame())).toContain('users.json');
    expect(app.lastFrame()).toContain('Source]');
  });
});

describe('help and the question mark', () => {
  it('? shows the keys and what the screen does; any key goes back; in a text with text in it, ? is typed', async () => {
    const app = open({ file: '' });
    await waitFor(app, 'Where is the core?');
    await press(app, '?');
    await waitFor(app, 'Help: Connect');
    expect(app.lastFrame()).toContain('Enter runs the pre-flight');
    expect(app.lastFrame()).toContain('Esc');
    await press(app, 'x');
    await waitFor(app, 'Where is the core?');
    await focusOn(app, 'core URL');
    expect(app.lastFrame()).toContain('Ctrl+G help');
    await press(app, '?');
    expect(focusedLine(app.lastFrame())).toContain('?');
    expect(app.lastFrame()).not.toContain('Help:');
    await press(app, '\u0007');
    await waitFor(app, 'Help: Connect');
  });
});

describe('fields', () => {
  it('a grey default is never part of the value: typing into an empty journal field gives what was typed', async () => {
    const app = open({ file: 'users.json', hashConfig: 'hash_config.txt' });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, 'Source]');
    await press(app, keys.enter);
    await waitFor(app, 'Hash families in the file');
    await press(app, keys.enter, keys.enter);
    await waitFor(app, 'Nothing is sent until you confirm.');
    expect(app.lastFrame()).toContain('default: users.json.push-journal.ndjson');
    await focusOn(app, 'journal');
    await press(app, 'j.ndjson');
    expect(focusedLine(app.lastFrame())).toMatch(/journal +j\.ndjson▏? *$/);
  });

  it('a masked field shows a dot for each character, so typing shows, and never the characters', async () => {
    const app = open({ file: '' });
    await waitFor(app, 'Where is the core?');
    await focusOn(app, 'API key');
    await press(app, keys.ctrlU, 'abc');
    expect(focusedLine(app.lastFrame())).toMatch(/API key +••• ?/);
    await press(app, 'def');
    expect(focusedLine(app.lastFrame())).toMatch(/API key +•••••• ?/);
    expect(app.lastFrame()).not.toContain('abcdef');
  });
});
