// s3rver ships no types; this covers only what tests/support/s3rver.ts uses. (Not named s3rver.d.ts:
// TypeScript ignores a .d.ts that sits beside a .ts file of the same name.)
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';

  class S3rver {
    constructor(options?: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory?: string;
      resetOnClose?: boolean;
      allowMismatchedSignatures?: boolean;
      vhostBuckets?: boolean;
      configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
    });
    /** Creates the configured buckets, then listens; resolves with the bound address. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    httpServer?: Server;
  }

  export = S3rver;
}
