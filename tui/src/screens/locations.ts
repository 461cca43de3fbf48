/** "users.json, line 12" → "line 12": the file is the one on the screen already. */
export function shortLocation(location: string): string {
  return /, ((?:line|record) .*)$/.exec(location)?.[1] ?? location;
}

/** Reasons may name other records by their full path; on a table the file name is enough. */
export function withFileNames(text: string): string {
  return text.replace(/(?:\/[^\s,/]+)+\/([^\s,/]+)/g, '$1');
}
