export { detectDocType } from './detect-doc-type';
export { STORED_PATH_FORMAT, buildStoredPath, sanitizeStoredName } from './stored-path';
export { ACCEPTED_FILE_TYPES, sanitizeOriginalFilename, validateFile } from './validate';
export { onePagePdf } from './one-page-pdf';
