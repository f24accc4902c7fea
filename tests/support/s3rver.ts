import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export type RunningS3rver = { endpoint: string; bucket: string; stop(): Promise<void> };

/** What a client needs besides the endpoint: s3rver accepts only these credentials, and no bucket subdomains. */
export const S3RVER_CLIENT = { region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true } as const;

/**
 * An in-process S3 server (real HTTP protocol, files on disk) on a free port of 127.0.0.1, with one empty
 * bucket, in a scratch directory of its own so parallel test files never share objects.
 */
export async function startS3rver(): Promise<RunningS3rver> {
  const directory = await mkdtemp(path.join(tmpdir(), 'cb-s3rver-'));
  const bucket = 'clearbase-test';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    async stop() {
      // Keep-alive sockets from SDK clients would otherwise hold close() open until they time out.
      const closed = server.close();
      server.httpServer?.closeAllConnections();
      await closed;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
