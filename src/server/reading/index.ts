export { createReadDocumentHandler, type ReadDocumentDeps } from './reading-job';
export { createDocumentReader, ReadingError } from './reader';
export { documentReadingView, NOT_READ, type DocumentReadingView } from './reading-view';
export { documentsHoldingWords, queueReading, queueReadings, READ_DOCUMENT_QUEUE, removeReading } from './reading.repository';
export { searchHashes, wordHashes, wordKey, type WordKey } from './word-index';
export type { DocumentReader } from './types';
