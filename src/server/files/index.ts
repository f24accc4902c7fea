export { detectDocType } from './detect-doc-type';
export { STORED_PATH_FORMAT, buildStoredPath, sanitizeStoredName } from './stored-path';
export { ACCEPTED_FILE_TYPES, sanitizeOriginalFilename, validateFile, type TFileKind, type TFileRejectionCode } from './validate';
export { INSPECTION_LIMITS, INSPECTION_MESSAGES, decodeHeifImage, inspectFile, type FileInspection, type InspectionLimits } from './inspect';
export { createFileInspector, sharedFileInspector, type FileInspector } from './inspector';
export { onePagePdf } from './one-page-pdf';
