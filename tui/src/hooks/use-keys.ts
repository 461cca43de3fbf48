import { useEffect, useRef } from 'react';
import { useInput, useStdin, type Key } from 'ink';

/** What terminals send for Backspace: DEL (most), or Ctrl+H; with Alt, the same after an Esc. */
const backspaceSequences = new Set(['\u007F', '\u001B\u007F', '\b', '\u001B\b']);

/** Ink's key, with Backspace and Delete named as on the keyboard (Ink reports the DEL that Backspace sends as `delete`). */
export function keyboardKey(key: Key, sequence: string): Key {
  if (!key.delete && !key.backspace) return key;
  const backspace = backspaceSequences.has(sequence);
  return { ...key, backspace, delete: !backspace };
}

/**
 * `useInput` for screens with text fields, whose handler can tell Backspace from Delete. Ink emits each key's
 * raw sequence to every listener in turn; the recorder below is registered once, before `useInput` (which
 * registers again after every render), so it always hears a key before the handler does.
 */
export function useKeys(handler: (input: string, key: Key) => void): void {
  const { internal_eventEmitter: keys } = useStdin();
  const lastSequence = useRef('');
  useEffect(() => {
    const record = (sequence: string) => {
      lastSequence.current = sequence;
    };
    keys.on('input', record);
    return () => {
      keys.removeListener('input', record);
    };
  }, [keys]);
  useInput((input, key) => handler(input, keyboardKey(key, lastSequence.current)));
}
