/**
 * The language section of the planner's system prompt, in the words models use: what works as
 * usual, and for what does not, what to write instead. Two versions: the language as it runs
 * today, and as it will run once the interpreter has a clock, Map and Set and the builtins
 * models reach for (issue 15, phase 2). {@link EXTENDED_LANGUAGE} picks one; switch it when
 * the interpreter lands those (it has: issue 15 phase 2, branch lang2).
 */

/** Which language the planner is told about; see {@link PlannerLanguage}. */
export type PlannerLanguage = "current" | "extended";

/**
 * True once the interpreter supports everything the extended section promises (a fixed clock,
 * Map and Set, `Array(n)`, `Object.groupBy`, `toSorted`, `structuredClone`, `String.raw`, named
 * groups, `Intl`). Until then the planner is told about the language as it runs today.
 */
export const EXTENDED_LANGUAGE = true;

const SHARED_SYNTAX = `- \`const\`, \`let\`, \`var\`; destructuring with defaults and rest; spread (\`...\`) in arrays, objects and calls; template literals; optional chaining (\`a?.b\`, \`a?.[i]\`, \`f?.()\`); \`??\`, \`??=\`, \`**\` and the other operators; ternaries
- arrow functions and function declarations, closures, recursion
- \`if\`/\`else\`, \`switch\`, \`for\`, \`for...of\`, \`for...in\`, \`while\`, \`do...while\`, labels, \`break\`, \`continue\`; \`try\`/\`catch\`/\`finally\` and \`throw\`
- plain objects and arrays with their methods (\`map\`, \`filter\`, \`find\`, \`findLast\`, \`findIndex\`, \`some\`, \`every\`, \`reduce\`, \`flat\`, \`flatMap\`, \`includes\`, \`indexOf\`, \`slice\`, \`splice\`, \`sort\`, \`reverse\`, \`join\`, \`at\`, \`push\`, ...), string methods (\`split\`, \`replace\`, \`replaceAll\`, \`match\`, \`padStart\`, \`trim\`, \`toLowerCase\`, \`localeCompare\`, ...), regular expressions without lookaround or backreferences`;

const SHARED_END = `- \`console.log(...)\` shows a line to the user
- \`await\` before a call is allowed and changes nothing: every call returns its result directly; \`await Promise.all([...])\` runs independent tool calls at the same time`;

const NEVER = `classes, \`this\`, generators, getters and setters, \`import\`/\`export\`, \`eval\`, \`Function\`, \`globalThis\`, \`process\`, \`require\`, \`__proto__\`, \`prototype\`, \`constructor\`, \`with\``;

const CURRENT = `# Language

The program is modern JavaScript that runs once, top to bottom, in a sandbox: no browser, no Node.js, no modules.

Works as usual:
${SHARED_SYNTAX}
- \`Math\`, \`JSON\` (\`stringify\`, \`parse\`), \`Number\` (\`isInteger\`, \`isFinite\`, \`EPSILON\`, ...), \`String\`, \`Boolean\`, \`parseInt\`, \`parseFloat\`, \`Array.isArray\`, \`Array.from\` (also \`Array.from({ length: n }, (_, i) => i)\`), \`Array.of\`, \`Object.keys\`/\`values\`/\`entries\`/\`fromEntries\`/\`assign\`
- \`Date\` on dates you give it: \`new Date(isoString)\`, \`new Date(Date.UTC(year, monthIndex, day))\`, \`getDay()\`, \`toISOString()\`, \`toLocaleDateString("en-US")\`
- \`new\` only for \`Date\` and the error types \`Error\`, \`TypeError\`, \`RangeError\`, \`SyntaxError\`, \`ReferenceError\`
${SHARED_END}

Not available, and what to write instead:
- There is no clock: \`new Date()\` without an argument and \`Date.now()\` fail. Today's date comes with the user's request; write it as a string literal, \`new Date("YYYY-MM-DD")\`.
- No \`Map\`, \`Set\` or \`WeakMap\`: use a plain object (\`counts[key] = (counts[key] ?? 0) + 1\`, \`Object.entries(counts)\`), and \`array.includes(x)\` for membership.
- No \`Array(n)\` or \`new Array(n)\`: write \`Array.from({ length: n }, () => 0)\`.
- No \`structuredClone\`: copy with \`{ ...obj }\`, \`[...arr]\` or \`JSON.parse(JSON.stringify(x))\`.
- No \`Object.groupBy\`, \`toSorted\`, \`toReversed\`, \`toSpliced\` or \`with\`: use \`reduce\`, \`[...arr].sort(...)\`, \`[...arr].reverse()\`.
- No \`Intl\`, no \`String.raw\` (no tagged templates at all), no \`.groups\` from named regex groups: use \`toFixed\`, \`padStart\`, \`toLocaleDateString\`, and numbered groups (\`m[1]\`).
- Never: ${NEVER}.`;

const EXTENDED = `# Language

The program is modern JavaScript that runs once, top to bottom, in a sandbox: no browser, no Node.js, no modules.

Works as usual:
${SHARED_SYNTAX}
- \`Map\` and \`Set\`: \`new Map(entries)\`, \`new Set(items)\`, \`get\`, \`set\`, \`has\`, \`delete\`, \`size\`, \`for...of\`, spread, \`Array.from(map)\`, \`Object.fromEntries(map)\`
- \`Math\`, \`JSON\` (\`stringify\`, \`parse\`), \`Number\` (\`isInteger\`, \`isFinite\`, \`isNaN\`, \`EPSILON\`, ...), \`String\` (\`String.raw\`), \`Boolean\`, \`parseInt\`, \`parseFloat\`, \`structuredClone\`
- \`Array(n)\`, \`new Array(n).fill(0)\`, \`Array.of\`, \`Array.from\`, \`Array.isArray\`, \`Object.keys\`/\`values\`/\`entries\`/\`fromEntries\`/\`assign\`/\`groupBy\`, \`toSorted\`, \`toReversed\`, \`toSpliced\`, \`with\`, \`findLast\`, \`findLastIndex\`
- named regex groups: \`/(?<year>\\d{4})/.exec(s).groups.year\`
- \`Date\`: \`new Date()\` and \`Date.now()\` give the run's "now" (the same instant for the whole program; today's date also comes with the user's request), and \`new Date(isoString)\`, \`Date.UTC(...)\`, \`getDay()\`, \`toISOString()\` work on any date
- \`Intl.NumberFormat\`, \`Intl.DateTimeFormat\`, \`toLocaleDateString\` and \`toLocaleString\` for the common locales (\`en-US\`, \`en-GB\`, \`fr-FR\`, \`de-DE\`, ...), with the same output every time
- \`new\` for \`Date\`, \`Map\`, \`Set\`, \`Array\`, \`Intl\` formatters and the error types \`Error\`, \`TypeError\`, \`RangeError\`, \`SyntaxError\`, \`ReferenceError\`
${SHARED_END}

Not available, and what to write instead:
- No \`WeakMap\`, \`WeakSet\`, \`Symbol\`, \`Proxy\` or \`Reflect\`: use \`Map\`, \`Set\` and plain objects.
- No timers (\`setTimeout\`, \`setInterval\`) and no \`new Promise\`: call the tools directly, and \`Promise.all\` to run several at once.
- No tagged templates other than \`String.raw\`.
- Never: ${NEVER}.`;

/** The language section for `language` (default: by {@link EXTENDED_LANGUAGE}). */
export function languageSection(language: PlannerLanguage = EXTENDED_LANGUAGE ? "extended" : "current"): string {
  return language === "extended" ? EXTENDED : CURRENT;
}
