import { DOC_TYPE_LABELS, ZServerMessage, type TServerMessage } from '../../contract';
import type { ToastInput } from './toast-store';

/** Query resources that change when a document arrives or changes status (refreshed live). */
export const LIVE_REFRESHED_RESOURCES = ['uploads', 'stats', 'report', 'reports', 'documents'] as const;

export interface LiveMessageEffect {
  /** The server accepted the connection. */
  connected: boolean;
  /** Document data on screen is out of date. */
  refreshDocuments: boolean;
  /** Only this document's own data is out of date (what reading found in it): lists and figures stay. */
  refreshDocument?: string;
  toast?: ToastInput;
}

/** What the app does for each live server message: which queries to refresh, which toast to show. */
export function describeLiveMessage(message: TServerMessage): LiveMessageEffect {
  switch (message.type) {
    case 'connected':
      return { connected: true, refreshDocuments: false };
    case 'document_uploaded': {
      const { playerName, docType } = message.data;
      return {
        connected: false,
        refreshDocuments: true,
        toast: {
          title: 'New Document Uploaded',
          description: docType ? `${playerName} · ${DOC_TYPE_LABELS[docType]}` : playerName,
        },
      };
    }
    case 'document_status_updated': {
      const { documentId, status, scanFailed } = message.data;
      if (scanFailed === true) {
        return {
          connected: false,
          refreshDocuments: true,
          toast: { title: 'Virus Scan Failed', description: `Document #${documentId} waits for a virus scan; it is retried automatically.` },
        };
      }
      return {
        connected: false,
        refreshDocuments: true,
        toast: { title: 'Document Status Updated', description: `Document #${documentId} status changed to ${status}` },
      };
    }
    case 'document_read':
      // What reading found shows where the document is open. Its status did not change, so no toast, and no
      // list or figure is read again: a demo's first start reads hundreds of documents in a minute.
      return { connected: false, refreshDocuments: false, refreshDocument: message.data.documentId };
    case 'system_status': {
      const { level, message: text } = message.data;
      if (level !== 'error') return { connected: false, refreshDocuments: false };
      return {
        connected: false,
        refreshDocuments: false,
        toast: { title: 'System Alert', description: text, variant: 'destructive' },
      };
    }
  }
}

/** The message when the text is a valid server message, else null (callers only log those). */
export function parseLiveMessage(text: unknown): TServerMessage | null {
  if (typeof text !== 'string') return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const result = ZServerMessage.safeParse(json);
  return result.success ? result.data : null;
}

/** The /ws address on the page's own host, secure when the page is. */
export function liveSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws`;
}
