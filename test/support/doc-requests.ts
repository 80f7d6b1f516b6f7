/**
 * The requests the docs show, read as a client would send them (test/unit/doc-examples.test.ts checks
 * them against the route table): each `curl` call in a shell block of README.md and docs/*.md, its
 * continuation lines joined and its words split as a shell would, and each ```http request block.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

export interface Example {
  /** `file:line` of the example. */
  readonly where: string;
  readonly method: string;
  /** The URL as written, e.g. `$BASE/application/$ORG`. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** The fenced code blocks of a page, with their language and first line. */
function blocks(page: string): Array<{ lang: string; text: string; line: number }> {
  const found: Array<{ lang: string; text: string; line: number }> = [];
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\w*)\s*$/.exec(lines[index] ?? '');
    if (!open) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
    found.push({ lang: open[1] ?? '', text: lines.slice(index + 1, end).join('\n'), line: index + 2 });
    index = end;
  }
  return found;
}

/** Shell words of one command from `start`, up to an unquoted `|`, `;`, `&`, `)`, comment or line end. */
function shellWords(text: string, start: number): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let at = start;
  const append = (chars: string) => {
    word = (word ?? '') + chars;
  };
  while (at < text.length) {
    const char = text[at] as string;
    if (char === '\\' && text[at + 1] === '\n') {
      at += 2;
    } else if (char === "'") {
      const close = text.indexOf("'", at + 1);
      append(text.slice(at + 1, close));
      at = close + 1;
    } else if (char === '"') {
      let value = '';
      at++;
      while (text[at] !== '"') {
        if (text[at] === '\\' && '"\\$`'.includes(text[at + 1] as string)) at++;
        value += text[at];
        at++;
      }
      append(value);
      at++;
    } else if (char === '$' && text[at + 1] === '(') {
      let depth = 0;
      const from = at;
      do {
        if (text[at] === '(') depth++;
        if (text[at] === ')') depth--;
        at++;
      } while (depth > 0 && at < text.length);
      append(text.slice(from, at));
    } else if (/[|;&)\n]/.test(char) || (char === '#' && word === undefined)) {
      break;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      at++;
    } else {
      append(char);
      at++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** curl's options that take a value, and those the examples use without one. */
const WITH_VALUE = new Set([
  '-X',
  '--request',
  '-H',
  '--header',
  '-d',
  '--data',
  '--data-raw',
  '-w',
  '--write-out',
  '-o',
]);
const FLAGS = /^-[fsSLi]+$/;

function curlExample(words: readonly string[], where: string): Example {
  const headers: Record<string, string> = {};
  let method: string | undefined;
  let body: string | undefined;
  let url: string | undefined;
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as string;
    if (WITH_VALUE.has(word)) {
      const value = words[++index] ?? '';
      if (word === '-X' || word === '--request') method = value;
      if (word === '-H' || word === '--header') {
        const colon = value.indexOf(':');
        headers[value.slice(0, colon).trim().toLowerCase()] = value.slice(colon + 1).trim();
      }
      if (word.startsWith('-d') || word.startsWith('--data')) body = value;
    } else if (word.startsWith('-')) {
      if (!FLAGS.test(word))
        throw new Error(`${where}: curl option ${word} is unknown to this test: teach it`);
    } else if (url === undefined) {
      url = word;
    } else {
      throw new Error(`${where}: curl with two URLs (${url}, ${word})`);
    }
  }
  if (url === undefined) throw new Error(`${where}: curl without a URL`);
  return {
    where,
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    url,
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** Every example of a request in the docs: curl calls in shell blocks, and ```http blocks. */
function examplesOf(page: string): Example[] {
  return blocks(page).flatMap(({ lang, text, line }) => {
    if (lang === 'http') {
      // The request line and header fields, a blank line, the body.
      const gap = text.search(/\n\s*\n/);
      const head = gap === -1 ? text : text.slice(0, gap);
      const rest = gap === -1 ? '' : text.slice(gap).trim();
      const [request = '', ...fields] = head.split('\n');
      const [method = '', url = ''] = request.split(/\s+/);
      const headers = Object.fromEntries(
        fields.map((field) => [
          field.slice(0, field.indexOf(':')).trim().toLowerCase(),
          field.slice(field.indexOf(':') + 1).trim(),
        ]),
      );
      return [{ where: `${page}:${line}`, method, url, headers, ...(rest ? { body: rest } : {}) }];
    }
    if (lang !== 'sh') return [];
    return [...text.matchAll(/(?<=^|[\s(])curl\s/gm)].map((match) => {
      const lineOf = line + text.slice(0, match.index).split('\n').length - 1;
      return curlExample(shellWords(text, match.index), `${page}:${lineOf}`);
    });
  });
}

/** The base (`$BASE`, a host), the path and the query of a written URL. */
export function urlParts(url: string): { base: string; path: string; query: string } {
  const match = /^(\$\(.*\)|\$\{?\w+\}?|https?:\/\/[^/]+|[\w.-]+:\d+)?(\/[^?]*)?(?:\?(.*))?$/s.exec(url);
  return { base: match?.[1] ?? '', path: match?.[2] ?? '/', query: match?.[3] ?? '' };
}

/** Every example of a request in README.md and docs/*.md, in page order. */
export const requestExamples = (): Example[] => pages.flatMap(examplesOf);
