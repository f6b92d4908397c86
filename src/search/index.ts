/** Tool search: which of many tools a request needs, found offline with BM25 and a lexicon. */
export { searchTools, createToolIndex } from "./tool-index.js";
export type { ToolIndex, ToolSearchOptions } from "./tool-index.js";
export { DEFAULT_LEXICON } from "./lexicon.js";
export type { Lexicon, LexiconEntry } from "./lexicon.js";
export { scoreRetrieval, corpusTools, serverToolName } from "./evaluate.js";
export type { LabelledRequest, RetrievalScores, ToolCorpus } from "./evaluate.js";
