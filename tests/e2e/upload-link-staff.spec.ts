import { describeUploadLinkStaff } from './upload-link-staff-support';

/** Staff copy, count and stop a family's upload link at 1280 px (tests/e2e/upload-link-staff-support.ts). */
describeUploadLinkStaff({ phone: false });
