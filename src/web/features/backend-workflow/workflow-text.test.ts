import { describe, expect, it } from 'vitest';
import type { TInstallation } from '../../../contract';
import { acceptedExtensionsText, acceptedTypesText, fileSizeText, minutesText, pipelineStages, retentionText, splitStoredPath } from './workflow-text';

const installation: TInstallation = {
  storage: { driver: 'local', location: '/srv/clearbase/storage', usage: [] },
  antivirus: { scanningOn: true, clamdConfigured: true, clamdLocation: 'tcp://127.0.0.1:3310' },
  retentionYears: 7,
  maxFileBytes: 20 * 1024 * 1024,
  acceptedFileTypes: [
    { label: 'PDF', mime: 'application/pdf', extensions: ['pdf'] },
    { label: 'JPEG image', mime: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
  ],
  formWebhookConfigured: true,
  mailbox: { configured: true, intervalMs: 300_000 },
  playerId: { prefix: 'CB', format: 'CB-{year}-{8 hex}' },
  storedPath: { format: 'seasons/{year}/…' },
  example: {
    firstName: 'Zoë',
    lastName: "O'Brien",
    birthDate: '2015-03-02',
    division: 'AA',
    seasonYear: 2025,
    docType: 'medical',
    submissionId: 'abc',
    fileSha256: '0123456789abcdef',
    extension: 'pdf',
    playerId: 'CB-2025-1a2b3c4d',
    storedName: 'zoe_obrien',
    storedPath: 'seasons/2025/AA/zoe_obrien_2015-03-02_CB-2025-1a2b3c4d/zoe_obrien_2015-03-02_medical_abc_01234567.pdf',
  },
};

describe('App Workflow text', () => {
  it('states sizes, types, retention and intervals in plain words', () => {
    expect(fileSizeText(20 * 1024 * 1024)).toBe('20 MB');
    expect(fileSizeText(1_500_000)).toBe('1.43 MB');
    expect(fileSizeText(2048)).toBe('2.00 KB');
    expect(acceptedTypesText(installation.acceptedFileTypes)).toBe('PDF and JPEG image');
    expect(acceptedTypesText([{ label: 'PDF', mime: 'application/pdf', extensions: ['pdf'] }])).toBe('PDF');
    expect(acceptedExtensionsText(installation.acceptedFileTypes)).toBe('.pdf, .jpg, .jpeg');
    expect(retentionText(7)).toBe('7 years');
    expect(retentionText(1)).toBe('1 year');
    expect(minutesText(300_000)).toBe('5 minutes');
  });

  it('lists the pipeline’s twelve stages in the order a document goes through them', () => {
    expect(pipelineStages(installation).map((stage) => stage.title)).toEqual([
      'Intake',
      'Extract player info',
      'Download and validate the file',
      'Antivirus scan',
      'Hash (SHA-256)',
      'Player id',
      'Document type detection',
      'Rename',
      'Encrypted upload to storage (AES-256)',
      'Database record',
      'Notifications and audit',
      'Read the document (type, names, dates)',
    ]);
  });

  it('sets each stage against the installation: scanner, storage, retention, intake', () => {
    const byId = (i: TInstallation, id: string) => pipelineStages(i).find((stage) => stage.id === id)?.here;
    expect(byId(installation, 'scan')).toEqual({ state: 'on', text: 'ClamAV at tcp://127.0.0.1:3310' });
    expect(byId({ ...installation, antivirus: { ...installation.antivirus, scanningOn: false } }, 'scan')?.state).toBe('off');
    expect(byId({ ...installation, antivirus: { scanningOn: true, clamdConfigured: false, clamdLocation: null } }, 'scan')?.state).toBe('warning');
    expect(byId(installation, 'store')?.text).toBe('local encrypted storage: /srv/clearbase/storage');
    expect(byId(installation, 'record')?.text).toBe('Kept 7 years');
    expect(byId(installation, 'intake')?.text).toBe('form webhook on; mailbox checked every 5 minutes');
    expect(byId({ ...installation, formWebhookConfigured: false, mailbox: { configured: false, intervalMs: null } }, 'intake')).toEqual({
      state: 'warning',
      text: 'form webhook not configured; mailbox not configured',
    });
  });

  it('cuts a stored path into folder and file name', () => {
    expect(splitStoredPath(installation.example.storedPath)).toEqual({
      folder: 'seasons/2025/AA/zoe_obrien_2015-03-02_CB-2025-1a2b3c4d/',
      fileName: 'zoe_obrien_2015-03-02_medical_abc_01234567.pdf',
    });
    expect(splitStoredPath('file.pdf')).toEqual({ folder: '', fileName: 'file.pdf' });
  });
});
