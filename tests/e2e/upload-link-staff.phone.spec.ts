import { describeUploadLinkStaff } from './upload-link-staff-support';

/** Staff copy, count and stop a family's upload link on a 390 px phone (tests/e2e/upload-link-staff-support.ts). */
describeUploadLinkStaff({ phone: true });
