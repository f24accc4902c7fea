export { issueUploadLink, type IssuedUploadLink } from './issue-upload-link';
export { hashUploadToken, isWellFormedUploadToken, uploadLinkUrl } from './upload-link-token';
export { registerUploadLinkRoutes, ZFamilyTokenParams } from './upload-links.routes';
export {
  RECEIVED_MESSAGE,
  UploadLimitReached,
  createUploadLinksService,
  familyDocumentState,
  uploadLinkOrigin,
  type ActiveUploadLink,
  type UploadLinksDeps,
  type UploadLinksService,
} from './upload-links.service';
