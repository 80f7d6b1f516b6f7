/** Markdown pieces the generated regions (scripts/docs.ts) share. */

/** A Markdown table: a header row, its rule and one row per entry; `|` inside a cell is escaped. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** Inline code. */
export const code = (text: string) => `\`${text}\``;

/** `60` -> `1 min`, `600` -> `10 min`, `3600` -> `1 h`, `604800` -> `7 days`, `45` -> `45 s`. */
export function duration(seconds: number): string {
  const units: Array<[number, string, string]> = [
    [86_400, 'day', 'days'],
    [3_600, 'h', 'h'],
    [60, 'min', 'min'],
  ];
  for (const [size, one, many] of units) {
    if (seconds >= size && seconds % size === 0) {
      const count = seconds / size;
      return `${count} ${count === 1 ? one : many}`;
    }
  }
  return `${seconds} s`;
}
