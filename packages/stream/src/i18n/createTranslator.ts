// The widget's translator, catalog loading and document language are the ones every client
// shares (@parley/contract, translate.ts).
export {
  createTranslator,
  extendCatalog,
  loadCatalogChunk,
  setDocumentLanguage,
} from '@parley/contract';
export type { Message, MessageVars, PluralMessage, Translate } from '@parley/contract';
