import { createContext, useContext, type ReactNode } from 'react';
import { Text } from 'ink';
import { printable } from 'core-client/printable';
import { optional } from 'core-client/settings';

/** Whether the app may use colour: https://no-color.org says any non-empty NO_COLOR turns it off. */
export function colourAllowed(env: NodeJS.ProcessEnv): boolean {
  const noColor = env['NO_COLOR'];
  return noColor === undefined || noColor === '';
}

const ThemeContext = createContext<{ colour: boolean }>({ colour: true });

export function ThemeProvider({ colour, children }: { colour: boolean; children: ReactNode }) {
  return <ThemeContext.Provider value={{ colour }}>{children}</ThemeContext.Provider>;
}

/** Whether this screen may use colour (false under NO_COLOR). */
export function useColour(): boolean {
  return useContext(ThemeContext).colour;
}

export type ToneName = 'ok' | 'error' | 'warning' | 'muted' | 'accent' | 'plain';

const toneColours: Record<ToneName, string | undefined> = {
  ok: 'green',
  error: 'red',
  warning: 'yellow',
  muted: 'gray',
  accent: 'cyan',
  plain: undefined,
};

/**
 * Text with a meaning-carrying tone. Colour is only a hint on top of the words and symbols (✓ ✗ !),
 * so with NO_COLOR nothing is lost; chalk does not read NO_COLOR itself, hence this gate. Its text may come from an
 * export or a core: control characters are shown escaped, never sent to the terminal.
 */
export function Tone({ tone, bold, children }: { tone: ToneName; bold?: boolean; children: ReactNode }) {
  const { colour } = useContext(ThemeContext);
  const colourName = colour ? toneColours[tone] : undefined;
  return (
    <Text {...optional('color', colourName)} bold={bold ?? false}>
      {typeof children === 'string' ? printable(children) : children}
    </Text>
  );
}
