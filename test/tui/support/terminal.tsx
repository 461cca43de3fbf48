import { EventEmitter } from 'node:events';
import type { ReactElement } from 'react';
import { render, type Instance } from 'ink';

/** A terminal's output as Ink sees it: a size that can change (with 'resize'), and every frame written. */
class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  readonly frames: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string): boolean => {
    this.frames.push(frame);
    return true;
  };
}

/** A terminal's input: what a test writes arrives as one read, as a terminal delivers a burst of keys. */
class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  #data: string | null = null;
  write = (data: string): void => {
    this.#data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = (): string | null => {
    const data = this.#data;
    this.#data = null;
    return data;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

export interface Terminal {
  /** The last whole frame drawn (Ink's debug mode writes each frame whole). */
  lastFrame: () => string;
  frames: () => readonly string[];
  /** Bytes as a terminal sends them: several keys in one write arrive in one read. */
  write: (data: string) => void;
  /** A paste as a terminal in bracketed-paste mode sends it. */
  paste: (text: string) => void;
  resize: (columns: number, rows: number) => void;
  unmount: () => void;
  instance: Instance;
}

/** Renders the app in a terminal of the given size, for tests of layout, resizes and key bursts. */
export function renderInTerminal(element: ReactElement, size: { columns: number; rows: number } = { columns: 80, rows: 24 }): Terminal {
  const stdout = new FakeStdout(size.columns, size.rows);
  const stdin = new FakeStdin();
  const stderr = new FakeStdout(size.columns, size.rows);
  const instance = render(element, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    lastFrame: () => stdout.frames.at(-1) ?? '',
    frames: () => stdout.frames,
    write: (data) => stdin.write(data),
    paste: (text) => stdin.write(`\u001b[200~${text}\u001b[201~`),
    resize: (columns, rows) => {
      stdout.columns = columns;
      stdout.rows = rows;
      stdout.emit('resize');
    },
    unmount: () => instance.unmount(),
    instance,
  };
}

/** Lets React commit and Ink draw (and Ink's lone-Esc flush, which waits one macrotask) before the next key. */
export async function settle(ms = 30): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Presses keys one at a time, as an operator would, letting the app draw between them. */
export async function press(terminal: Pick<Terminal, 'write'>, ...sequence: string[]): Promise<void> {
  await settle();
  for (const key of sequence) {
    terminal.write(key);
    await settle();
  }
}

/** Waits until the frame shows what is awaited (work in the background: HTTP, files), or fails naming it. */
export async function waitFor(terminal: Pick<Terminal, 'lastFrame'>, ready: string | ((frame: string) => boolean), limitMs = 10_000): Promise<string> {
  const test = typeof ready === 'string' ? (frame: string) => frame.includes(ready) : ready;
  const deadline = Date.now() + limitMs;
  for (;;) {
    const frame = terminal.lastFrame();
    if (test(frame)) return frame;
    if (Date.now() > deadline)
      throw new Error(`the screen never showed ${typeof ready === 'string' ? `"${ready}"` : 'what was awaited'}; last frame:\n${frame}`);
    await settle(25);
  }
}

/** Every line of a frame within the terminal: no more lines than rows, none wider than its columns. */
export function overflow(frame: string, columns: number, rows: number): string[] {
  const lines = frame.split('\n');
  const problems: string[] = [];
  if (lines.length > rows) problems.push(`${lines.length} lines for ${rows} rows`);
  for (const line of lines) if (Array.from(line).length > columns) problems.push(`wider than ${columns}: ${line}`);
  return problems;
}

/** The line of the focused field (marked ▸), or ''. */
export function focusedLine(frame: string): string {
  return frame.split('\n').find((line) => line.startsWith('▸')) ?? '';
}

/** Moves the focus down until the focused field's line holds `label`, as an operator would with ↓. */
export async function focusOn(terminal: Terminal, label: string, limit = 40): Promise<void> {
  for (let step = 0; step < limit; step += 1) {
    if (focusedLine(terminal.lastFrame()).includes(label)) return;
    await press(terminal, '\u001B[B');
  }
  throw new Error(`no field "${label}" could be focused; last frame:\n${terminal.lastFrame()}`);
}

/** The frame's text with its line breaks as spaces: for sentences that wrap. */
export function flat(frame: string): string {
  return frame.replace(/\s+/g, ' ');
}

/** Whether the frame's step line names `screen` as the current one (in any width's form). */
export function onScreen(screen: string): (frame: string) => boolean {
  return (frame) => {
    const header = frame.split('\n')[0] ?? '';
    return header.includes(`${screen}]`) || header.endsWith(`: ${screen}`) || header.endsWith(` ${screen}`);
  };
}

/** From Connect through Source and Hashes to the Identity screen, with Enter on each; the Identity screen's text. */
export async function walkToIdentity(terminal: Terminal): Promise<string> {
  await waitFor(terminal, 'Where is the core?');
  await press(terminal, '\r');
  await waitFor(terminal, onScreen('Source'));
  await press(terminal, '\r');
  await waitFor(terminal, 'Hash families in the file');
  await press(terminal, '\r');
  return flat(await waitFor(terminal, onScreen('Identity')));
}

/** From Connect to Review with Enter on each screen, as the walk goes when every setting is given. */
export async function walkToReview(terminal: Terminal): Promise<void> {
  await waitFor(terminal, 'Where is the core?');
  await press(terminal, '\r');
  await waitFor(terminal, onScreen('Source'));
  await press(terminal, '\r');
  await waitFor(terminal, 'Hash families in the file');
  await press(terminal, '\r', '\r');
  await waitFor(terminal, (frame) => onScreen('Review')(frame) && frame.includes('The plan'));
}
