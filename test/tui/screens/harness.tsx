import type { ReactElement } from 'react';
import { ThemeProvider } from '../../../tui/src/components/theme.js';
import { useWalk, type Walk } from '../../../tui/src/hooks/use-walk.js';
import { initialWalkState, walkReducer, type WalkAction, type WalkDefaults, type WalkState } from '../../../tui/src/screens/walk-state.js';

/** Renders one screen over the real reducer, so a test types keys and sees the state the screen would get. */
export function ScreenHarness({
  defaults,
  prepare = [],
  observe,
  screen,
}: {
  defaults?: WalkDefaults;
  prepare?: WalkAction[];
  observe?: (state: WalkState) => void;
  screen: (walk: Walk) => ReactElement;
}) {
  const walk = useWalk(() => prepare.reduce(walkReducer, initialWalkState(defaults)));
  observe?.(walk.current());
  return <ThemeProvider colour={false}>{screen(walk)}</ThemeProvider>;
}
