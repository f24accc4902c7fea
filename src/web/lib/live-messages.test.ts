import { describe, expect, it } from 'vitest';
import { describeLiveMessage, liveSocketUrl, parseLiveMessage } from './live-messages';

describe('describeLiveMessage', () => {
  it('marks the connection as connected and shows no toast for connected', () => {
    const effect = describeLiveMessage({ type: 'connected', connectionId: 'c1', data: { message: 'hi' } });
    expect(effect).toEqual({ connected: true, refreshDocuments: false });
  });

  it('announces an upload with the player name and the document type label', () => {
    const effect = describeLiveMessage({
      type: 'document_uploaded',
      data: { documentId: '7', playerName: 'Sam Lee', docType: 'medical' },
    });
    expect(effect.refreshDocuments).toBe(true);
    expect(effect.toast).toEqual({ title: 'New Document Uploaded', description: 'Sam Lee · Medical Form' });
  });

  it('announces an upload of an undetected type with the player name only', () => {
    const effect = describeLiveMessage({
      type: 'document_uploaded',
      data: { documentId: '7', playerName: 'Sam Lee', docType: null },
    });
    expect(effect.toast?.description).toBe('Sam Lee');
  });

  it('announces a status change as "Document #{id} status changed to {status}"', () => {
    const effect = describeLiveMessage({ type: 'document_status_updated', data: { documentId: '12', status: 'verified' } });
    expect(effect.refreshDocuments).toBe(true);
    expect(effect.toast).toEqual({
      title: 'Document Status Updated',
      description: 'Document #12 status changed to verified',
    });
  });

  it('says so when a document starts waiting for a virus scan that failed', () => {
    const effect = describeLiveMessage({ type: 'document_status_updated', data: { documentId: '12', status: 'processing', scanFailed: true } });
    expect(effect.refreshDocuments).toBe(true);
    expect(effect.toast).toEqual({ title: 'Virus Scan Failed', description: 'Document #12 waits for a virus scan; it is retried automatically.' });
  });

  it('refreshes only the document that was read, without a toast: its status did not change', () => {
    expect(describeLiveMessage({ type: 'document_read', data: { documentId: '12', division: 'AA' } })).toEqual({
      connected: false,
      refreshDocuments: false,
      refreshDocument: '12',
    });
  });

  it('shows a destructive System Alert only for error-level system messages', () => {
    const error = describeLiveMessage({ type: 'system_status', data: { level: 'error', message: 'Storage is down' } });
    expect(error.toast).toEqual({ title: 'System Alert', description: 'Storage is down', variant: 'destructive' });
    const warning = describeLiveMessage({ type: 'system_status', data: { level: 'warning', message: 'Slow' } });
    expect(warning.toast).toBeUndefined();
    expect(warning.refreshDocuments).toBe(false);
  });
});

describe('parseLiveMessage', () => {
  it('returns a valid server message', () => {
    const text = JSON.stringify({ type: 'connected', connectionId: 'c1', data: { message: 'hi' } });
    expect(parseLiveMessage(text)?.type).toBe('connected');
  });

  it('returns null for invalid JSON, unknown types and non-text frames', () => {
    expect(parseLiveMessage('not json')).toBeNull();
    expect(parseLiveMessage(JSON.stringify({ type: 'mystery', data: {} }))).toBeNull();
    expect(parseLiveMessage(new ArrayBuffer(2))).toBeNull();
  });
});

describe('liveSocketUrl', () => {
  it('uses ws on http pages and wss on https pages, on the same host', () => {
    expect(liveSocketUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe('ws://localhost:5173/ws');
    expect(liveSocketUrl({ protocol: 'https:', host: 'clearbase.example.org' })).toBe('wss://clearbase.example.org/ws');
  });
});
