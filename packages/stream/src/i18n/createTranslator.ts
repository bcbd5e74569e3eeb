// The widget's translator is the one every client shares (@parley/contract, translate.ts).
export { createTranslator, extendCatalog } from '@parley/contract';
export type { Message, MessageVars, PluralMessage, Translate } from '@parley/contract';
