export { toDocument, toUploadItem, type StorageFor } from './document-view';
export { countDocumentsAwaitingFailedScan, findDocument, findDocumentForPipeline, findSameFile, insertDocument, insertDocuments, listDocumentsOfSubmission, listPlayerTimelineDocuments, listRecentUploads, updateDocument, type DocumentRow, type NewDocument, type PipelineDocument, type PlayerTimelineDocumentRow } from './documents.repository';
export { registerDocumentRoutes } from './documents.routes';
export { createDocumentsService, type DocumentsService } from './documents.service';
export { RETENTION_QUEUE, createRetentionHandler, scheduleRetention } from './retention';
export { MINIMISE_QUEUE, createMinimiseHandler, scheduleMinimise } from './minimise';
