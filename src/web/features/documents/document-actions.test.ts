import { describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS, type TUserRole } from '../../../contract';
import { permissionCheck } from '@/lib/session-api';
import { documentBulkActions, documentRowActions, rowActionLayout } from './document-actions';

const canAs = (role: TUserRole) => permissionCheck(ROLE_PERMISSIONS[role]);

const pending = { status: 'pending', scanFailed: false, fileRemoved: false } as const;
const verified = { status: 'verified', scanFailed: false, fileRemoved: false } as const;
const scanFailed = { status: 'processing', scanFailed: true, fileRemoved: false } as const;
const fileRemoved = { status: 'verified', scanFailed: false, fileRemoved: true } as const;

describe('documentRowActions', () => {
  it('gives an admin every action that applies to the row', () => {
    expect(documentRowActions(pending, canAs('admin'))).toEqual(['view', 'approve', 'reject', 'download', 'history']);
    expect(documentRowActions(verified, canAs('admin'))).toEqual(['view', 'reopen', 'download', 'history']);
    expect(documentRowActions({ status: 'rejected', scanFailed: false, fileRemoved: false }, canAs('admin'))).toEqual(['view', 'reopen', 'download', 'history']);
    expect(documentRowActions(scanFailed, canAs('admin'))).toEqual(['view', 'retryScan', 'download', 'history']);
  });

  it('gives a moderator the same: they open files and review', () => {
    expect(documentRowActions(pending, canAs('moderator'))).toEqual(['view', 'approve', 'reject', 'download', 'history']);
    expect(documentRowActions(verified, canAs('moderator'))).toEqual(['view', 'reopen', 'download', 'history']);
    expect(documentRowActions(scanFailed, canAs('moderator'))).toEqual(['view', 'retryScan', 'download', 'history']);
  });

  it('gives a viewer only the history: no file is opened, nothing is reviewed', () => {
    expect(documentRowActions(pending, canAs('viewer'))).toEqual(['history']);
    expect(documentRowActions(verified, canAs('viewer'))).toEqual(['history']);
    expect(documentRowActions(scanFailed, canAs('viewer'))).toEqual(['history']);
  });

  it('offers nothing to open, download or reopen once a verified document’s file was removed: its history only', () => {
    expect(documentRowActions(fileRemoved, canAs('admin'))).toEqual(['history']);
  });

  it('gives nothing before the session is known', () => {
    expect(documentRowActions(pending, permissionCheck(undefined))).toEqual([]);
  });
});

describe('documentBulkActions', () => {
  it('follows the role', () => {
    expect(documentBulkActions(canAs('admin'))).toEqual(['upload', 'export', 'approve']);
    expect(documentBulkActions(canAs('moderator'))).toEqual(['upload', 'export', 'approve']);
    // Export writes what the viewer can already read.
    expect(documentBulkActions(canAs('viewer'))).toEqual(['export']);
    expect(documentBulkActions(permissionCheck(undefined))).toEqual([]);
  });
});

describe('rowActionLayout', () => {
  it('puts Download and History in the More menu', () => {
    expect(rowActionLayout(['view', 'approve', 'reject', 'download', 'history'])).toEqual({
      buttons: ['view', 'approve', 'reject'],
      menu: ['download', 'history'],
    });
  });

  it('shows a lone menu action as a button instead of a menu of one', () => {
    expect(rowActionLayout(['history'])).toEqual({ buttons: ['history'], menu: [] });
    expect(rowActionLayout([])).toEqual({ buttons: [], menu: [] });
  });
});
