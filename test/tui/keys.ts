/** What a terminal sends for the keys an operator presses, for ink-testing-library's stdin. */
export const keys = {
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  shiftTab: '\u001B[Z',
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  backspace: '\u007F',
  /** The Delete key (forward delete), as xterm and tmux send it. */
  delete: '\u001B[3~',
  home: '\u001B[H',
  pageUp: '\u001B[5~',
  pageDown: '\u001B[6~',
  end: '\u001B[F',
  ctrlA: '\u0001',
  ctrlE: '\u0005',
  ctrlC: '\u0003',
  ctrlU: '\u0015',
} as const;

/** Lets React commit and Ink draw (and Ink's lone-Esc flush, which waits one macrotask) before the next key. */
export async function tick(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
}

export interface Typist {
  stdin: { write: (data: string) => void };
}

/** Presses keys one at a time, as an operator would, letting the app settle between them. */
export async function press(app: Typist, ...sequence: string[]): Promise<void> {
  // A screen listens for keys from an effect after its first render: let that happen before the first key.
  await tick();
  for (const key of sequence) {
    app.stdin.write(key);
    await tick();
  }
}

/** Waits until the frame satisfies `ready` (work in the background: HTTP, reading files), or fails naming what was awaited. */
export async function waitForFrame(lastFrame: () => string | undefined, ready: (frame: string) => boolean, what: string, limitMs = 10_000): Promise<string> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const frame = lastFrame() ?? '';
    if (ready(frame)) return frame;
    if (Date.now() > deadline) throw new Error(`the screen never showed ${what}; last frame:\n${frame}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
