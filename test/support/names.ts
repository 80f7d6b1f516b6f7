/**
 * Display names no name field accepts (docs/api.md, Names): C0 and C1 controls, DEL, the Unicode line
 * and paragraph separators, UTF-16 surrogates without their other half, format characters that
 * steer or hide text (bidi controls, zero-width spaces, the BOM, tags), and names with nothing
 * visible. As `[what, name]`.
 */
export const unprintableNames: [string, string][] = [
  ['a NUL', 'Ada\u0000'],
  ['CR LF and a header', 'Ada\r\nBcc: attacker@evil.test'],
  ['a trailing line feed', 'Ada\n'],
  ['a tab', 'Ada\tLovelace'],
  ['DEL', 'Ada\u007f'],
  ['a C1 control (NEL)', 'Ada\u0085Lovelace'],
  ['a line separator', 'Ada\u2028Lovelace'],
  ['a paragraph separator', 'Ada\u2029Lovelace'],
  ['an unpaired high surrogate', 'Ada\ud83d'],
  ['an unpaired low surrogate', '\ude00Ada'],
  ['a right-to-left override', 'Ada\u202Egnp.exe'],
  ['a left-to-right mark', 'Ada\u200E'],
  ['an Arabic letter mark', 'Ada\u061CLovelace'],
  ['a left-to-right isolate', '\u2066x'],
  ['a zero-width space alone', '\u200B'],
  ['a word joiner and a ZWJ', '\u2060\u200D'],
  ['a byte order mark inside', 'Ada\uFEFFLovelace'],
  ['a tag character', 'Ada\u{E0041}'],
  ['the unassigned start of the tag block', 'Ada\u{E0000}'],
  ['a ZWJ alone', '\u200D'],
  ['a Hangul filler alone', '\u3164'],
];

/** Names that must still pass: other scripts, accents, emoji (a paired surrogate), inner spaces, joiners. */
export const printableNames = [
  'Zoë Ångström',
  '李小龍',
  'محمد علي',
  'Ada 😀 Lovelace',
  // ZWNJ and ZWJ, which Persian and emoji sequences need.
  'مهر\u200Cآسا',
  'Ada \u{1F469}\u200D\u{1F4BB}',
];
