export { issueUploadLink, type IssuedUploadLink } from './issue-upload-link';
export { hashUploadToken, isWellFormedUploadToken, uploadLinkUrl } from './upload-link-token';
