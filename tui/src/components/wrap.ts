/** `text` cut into lines of at most `width` characters, at spaces where it can. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    let rest = word;
    while (Array.from(rest).length > width) {
      if (line !== '') {
        lines.push(line);
        line = '';
      }
      lines.push(Array.from(rest).slice(0, width).join(''));
      rest = Array.from(rest).slice(width).join('');
    }
    if (line === '') line = rest;
    else if (Array.from(line).length + 1 + Array.from(rest).length <= width) line = `${line} ${rest}`;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line !== '') lines.push(line);
  return lines.length === 0 ? [''] : lines;
}
