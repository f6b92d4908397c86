/**
 * Differential semantics, strings: every String method of the subset, with string and
 * regular-expression arguments. Completion values must equal V8's.
 */
import { describe } from "vitest";
import { sameAsV8 } from "./semantics-support.js";

describe("split", () => {
  sameAsV8([
    "'a,b,,c'.split(',')",
    "'abc'.split('')",
    "'a b  c'.split(' ')",
    "'a,b,c,d'.split(',', 2)",
    "'a,b'.split(',', 0)",
    "'abc'.split()",
    "''.split(',')",
    "''.split('')",
    "'a1b22c333d'.split(/\\d+/)",
    "'a, b ,c'.split(/\\s*,\\s*/)",
    "'one  two\\tthree'.split(/\\s+/)",
    "'a1b2c3'.split(/(\\d)/)",
    "'a1b2c3'.split(/\\d/, 2)",
    "'abc'.split(/(?:)/)",
    "'key=value=more'.split('=')",
    "'line1\\nline2\\r\\nline3'.split(/\\r?\\n/)",
    "',a,'.split(',')",
    "'aXbxc'.split(/x/i)",
    "['a1b2c'.split(/\\d/, -1), 'a,b,c'.split(',', -1), 'a b c'.split(' ', 0), 'abc'.split(undefined, 0)]",
    "['abc'.split(/b*/), 'a,b,'.split(/,/), ''.split(/,/), ''.split(/(?:)/), 'ab'.split(/$/)]",
    "['a,b,c'.split(/,/, 2), 'abc'.split(/(b)/, 2), 'a\\nb'.split(/^/m)]",
    "['test'.split(/(?:)/u), '😀😀'.split(/(?:)/u), '😀😀'.split('')]",
  ]);
});

describe("replace / replaceAll", () => {
  sameAsV8([
    "'aaa'.replace('a', 'b')",
    "'aaa'.replaceAll('a', 'b')",
    "'a-b-c'.replace(/-/g, '+')",
    "'a-b-c'.replace(/-/, '+')",
    "'John Smith'.replace(/(\\w+)\\s(\\w+)/, '$2, $1')",
    "'2026-01-31'.replace(/(\\d+)-(\\d+)-(\\d+)/, '$3/$2/$1')",
    "'price: 10'.replace(/\\d+/, (m) => String(Number(m) * 2))",
    "'a1b2'.replace(/([a-z])(\\d)/g, (m, l, d) => d + l)",
    "'abc'.replace(/b/, '[$&]')",
    "'abc'.replace('b', '$$')",
    "'x.y.z'.replaceAll('.', '/')",
    "'aaa'.replaceAll('aa', 'b')",
    "'Hello World'.replace(/o/gi, '0')",
    "'abc'.replace('z', 'y')",
    "'a-b'.replace('-', (m, i) => `<${m}@${i}>`)",
    "'aXbXc'.replaceAll('X', (m, i) => i)",
    "'abc'.replaceAll('', '-')",
    "'tom and jerry'.replace(/\\b\\w/g, (c) => c.toUpperCase())",
    "'2026-01-31'.replace(/(?<y>\\d+)-(?<m>\\d+)-(?<d>\\d+)/, '$<d>.$<m>.$<y>')",
    "'aaa'.replace(/a*?/g, '-')",
    "'abc'.replace(/(z)?b/, '[$1]')",
    "'ab'.replace(/b/, '$9')",
    "let r; try { 'aa'.replaceAll(/a/, 'b'); } catch (e) { r = e.name; } [r, 'aa'.replaceAll(/a/g, 'b')]",
    "['abc'.replace('b', '[$&]'), 'abc'.replace('b', '$`'), \"abc\".replace('b', \"$'\"), 'abc'.replace('b', '$1')]",
    "['abc'.replace(/b/, '$0'), 'ab'.replace(/(a)/, '$10'), 'ab'.replace(/(a)/, '$01'), 'abc'.replace(/(b)/, '<$`|$\\'>')]",
    "'a.b.c'.replaceAll('.', '$$.')",
    "'x'.replace(/(?<n>x)/, '$<missing>|$<n>')",
    "'x'.replace(/x/, '$<n>')",
  ]);
});

describe("match / search / regex test", () => {
  sameAsV8([
    "'a1b22c333'.match(/\\d+/g)",
    "'abc'.match(/\\d+/g)",
    "'abc'.match(/z/)",
    "const m = 'order #1234 shipped'.match(/#(\\d+)/); [m[0], m[1], m.length]",
    "const m = 'x=1'.match(/(\\w)=(\\d)/); [m[1], m[2]]",
    "'Hello'.match(/l/g).length",
    "'AbC'.match(/[a-z]/gi)",
    "[/^\\d{3}$/.test('123'), /^\\d{3}$/.test('1234'), /cat/i.test('CAT')]",
    "['hello world'.search(/o/), 'abc'.search(/z/), 'abc'.search('c')]",
    "const re = /\\w+@\\w+\\.com/; ['me@x.com', 'nope'].map((s) => re.test(s))",
    "'a.b'.match('.')[0]",
    "['a+b'.search('\\\\+'), 'x1'.match('\\\\d')[0], 'abc'.match()[0], 'abc'.search()]",
    "const m = /(\\d+)-(\\d+)/.exec('range 10-20'); [m[0], m[1], m[2]]",
    "const m = 'abc'.match(/(z)?c/); [m[0], m[1]]",
    "'émoji ünïcode'.match(/\\p{L}+/gu)",
  ]);
});

describe("slicing and searching", () => {
  sameAsV8([
    "const s = 'hello world'; [s.slice(0, 5), s.slice(6), s.slice(-5), s.slice(-5, -1), s.slice(3, 1), s.slice(), s.slice(100)]",
    "const s = 'hello'; [s.substring(1, 3), s.substring(3, 1), s.substring(-2), s.substring(2), s.substring(0, 100)]",
    "const s = 'abcabc'; [s.indexOf('c'), s.indexOf('c', 3), s.indexOf('z'), s.lastIndexOf('b'), s.indexOf(''), s.indexOf('a', -5)]",
    "const s = 'abcabc'; [s.lastIndexOf('b', 2), s.lastIndexOf('c', NaN), s.lastIndexOf(''), s.lastIndexOf('a', -5), s.lastIndexOf('c', 100)]",
    "const s = 'abc'; [s.includes('bc'), s.includes('x'), s.includes(''), s.includes('a', 1)]",
    "const s = 'report.pdf'; [s.startsWith('rep'), s.startsWith('port', 2), s.endsWith('.pdf'), s.endsWith('report', 6), s.endsWith('')]",
    "const s = 'abc'; [s.at(0), s.at(-1), s.at(5), s.charAt(1), s.charAt(9), s.charCodeAt(0), s.charCodeAt(9), s[1], s[7], s.length]",
    "['abc'.at(-4), 'abc'.at(1.7), 'abc'.charAt(-1)]",
    "'abcdef'.substr(2, 3)",
  ]);
});

describe("case, trim, pad, repeat, compare", () => {
  sameAsV8([
    "['MiXeD'.toLowerCase(), 'MiXeD'.toUpperCase(), 'straße'.toUpperCase(), 'İ'.toLowerCase().length]",
    "['  pad  '.trim(), '  pad  '.trimStart(), '  pad  '.trimEnd(), '\\t\\n x \\n'.trim()]",
    "['5'.padStart(3, '0'), '5'.padEnd(3, '0'), 'abc'.padStart(2), 'x'.padStart(6, 'ab'), 'x'.padEnd(4), '7'.padStart(3, '')]",
    "['ab'.repeat(3), 'x'.repeat(0), ''.repeat(5)]",
    "['a'.localeCompare('b'), 'b'.localeCompare('a'), 'a'.localeCompare('a')]",
    "['apple', 'cherry', 'banana'].sort((a, b) => a.localeCompare(b))",
    "['a'.localeCompare('B'), ['b', 'a', 'C', 'B'].sort((x, y) => x.localeCompare(y)), ['ä', 'a', 'z'].sort((x, y) => x.localeCompare(y))]",
    "['item10', 'item2', 'item1'].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))",
    "['a'.localeCompare('A', undefined, { sensitivity: 'base' }), 'résumé'.localeCompare('resume', 'en', { sensitivity: 'base' })]",
    "['ä', 'a', 'z'].sort((a, b) => a.localeCompare(b, 'sv'))",
    "let r; try { 'a'.localeCompare('b', 'xx-invalid-locale-!!'); } catch (e) { r = e.name; } r",
    "['a'.concat('b', 1, null), String(123), String(null), String(undefined), String([1, [2, 3]]), String({})]",
    "[String.fromCharCode(72, 105), 'Hi'.codePointAt(0), 'abc'.toString(), 'abc'.valueOf()]",
    "const s = 'immutable'; s.toUpperCase(); s",
    "'a-b_c d'.split(/[-_ ]/).map((w, i) => i === 0 ? w : w[0].toUpperCase() + w.slice(1)).join('')",
    "'hello'.split('').reverse().join('')",
    "[...'hello'].filter((c) => 'aeiou'.includes(c)).length",
  ]);
});
