import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, principalOf } from '../platform/http/access';
import { contentDisposition } from '../platform/http/content-disposition';
import {
  ZBulkStatusChange,
  ZBulkStatusResult,
  ZDocument,
  ZDocumentHistory,
  ZDocumentIdParams,
  ZDocumentList,
  ZDocumentListQuery,
  ZDocumentReopen,
  ZDocumentStatusChange,
  ZRecentUploads,
  ZRecentUploadsQuery,
  ZScanRetryResult,
  ZUploadToStorageRequest,
  ZUploadToStorageResponse, ZDocumentReviewContext
} from '../../contract';
import type { DocumentsService } from './documents.service';

export function registerDocumentRoutes(parent: FastifyInstance, deps: { documents: DocumentsService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { documents } = deps;

  app.get('/api/uploads/recent', { config: { access: 'read' }, schema: { querystring: ZRecentUploadsQuery, response: { 200: ZRecentUploads } } }, async (request) => ({
    uploads: await documents.listRecentUploads(request.query.limit, principalOf(request)),
  }));

  app.get('/api/documents', { config: { access: 'read' }, schema: { querystring: ZDocumentListQuery, response: { 200: ZDocumentList } } }, (request) =>
    documents.listDocuments(request.query, principalOf(request)),
  );

  app.post('/api/documents/status', { config: { access: 'documents.review' }, schema: { body: ZBulkStatusChange, response: { 200: ZBulkStatusResult } } }, (request) =>
    documents.changeStatuses(request.body.documentIds, request.body.status, actorOf(request)),
  );

  app.get('/api/documents/:id/history', { config: { access: 'read' }, schema: { params: ZDocumentIdParams, response: { 200: ZDocumentHistory } } }, (request) =>
    documents.history(request.params.id, principalOf(request)),
  );

  app.get('/api/documents/:id', { config: { access: 'read' }, schema: { params: ZDocumentIdParams, response: { 200: ZDocument } } }, (request) =>
    documents.getDocument(request.params.id, principalOf(request)),
  );

  app.get(
    '/api/documents/:id/review',
    { config: { access: 'documents.review' }, schema: { params: ZDocumentIdParams, response: { 200: ZDocumentReviewContext } } },
    (request) => documents.reviewContext(request.params.id, principalOf(request)),
  );

  app.patch(
    '/api/documents/:id/status',
    { config: { access: 'documents.review' }, schema: { params: ZDocumentIdParams, body: ZDocumentStatusChange, response: { 200: ZDocument } } },
    (request) => documents.changeStatus(request.params.id, request.body, actorOf(request)),
  );

  app.post(
    '/api/documents/:id/reopen',
    { config: { access: 'documents.review' }, schema: { params: ZDocumentIdParams, body: ZDocumentReopen, response: { 200: ZDocument } } },
    (request) => documents.reopen(request.params.id, request.body.reason, actorOf(request)),
  );

  app.post(
    '/api/documents/:id/retry-scan',
    { config: { access: 'documents.review' }, schema: { params: ZDocumentIdParams, response: { 202: ZScanRetryResult } } },
    async (request, reply) => reply.code(202).send(await documents.retryScan(request.params.id, actorOf(request))),
  );

  app.get('/api/documents/:id/file', { config: { access: 'files.open' }, schema: { params: ZDocumentIdParams } }, async (request, reply) => {
    const file = await documents.openFile(request.params.id, actorOf(request));
    return reply
      .header('content-type', file.mime)
      .header('content-disposition', contentDisposition(file.filename))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  });

  app.post(
    '/api/documents/upload-to-storage',
    { config: { access: 'players.add' }, schema: { body: ZUploadToStorageRequest, response: { 200: ZUploadToStorageResponse } } },
    (request) => documents.uploadToStorage(request.body.documentIds, actorOf(request)),
  );
}
