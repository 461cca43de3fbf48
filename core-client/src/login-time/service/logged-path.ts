import { printable } from '../../printable.js';

/** Characters of a path the log keeps: enough to tell a probe or a typo apart, never a client's payload. */
export const LOGGED_PATH_LENGTH = 64;

/**
 * A request's path as its log line holds it: without the query, cut to a short prefix (with "…" when cut), every
 * control character written escaped. Whatever a client puts in a path (15 KB of it, a terminal's escape sequences)
 * does not land in the log whole, so a line's length is bounded whatever is sent.
 */
export function loggedPath(url: string | undefined): string {
  const path = (url ?? '/').split('?', 1)[0] ?? '/';
  const cut = path.length > LOGGED_PATH_LENGTH;
  // Cut before escaping: the escaping works on a bounded text; then cut again, as an escape is longer than its character.
  const shown = printable(path.slice(0, LOGGED_PATH_LENGTH));
  return shown.length > LOGGED_PATH_LENGTH || cut ? `${shown.slice(0, LOGGED_PATH_LENGTH)}…` : shown;
}
