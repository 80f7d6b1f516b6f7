/**
 * Display names no name field accepts (issue 7, item 8): C0 and C1 controls, DEL, the Unicode line
 * and paragraph separators, and UTF-16 surrogates without their other half. As `[what, name]`.
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
];

/** Names that must still pass: other scripts, accents, emoji (a paired surrogate), inner spaces. */
export const printableNames = ['Zoë Ångström', '李小龍', 'محمد علي', 'Ada 😀 Lovelace'];
