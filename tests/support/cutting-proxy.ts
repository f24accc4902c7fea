import { connect, createServer, type Socket } from 'node:net';

export type CutPlan = {
  /** Armed on the first connection whose client→server bytes match this (a command such as a FETCH of a body). */
  when: RegExp;
  /** Server→client bytes forwarded from that match on; then both sockets are destroyed mid-stream. */
  afterBytes: number;
};

export type CutReport = {
  /** Server→client bytes forwarded after the trigger, exactly `afterBytes`. */
  forwarded: number;
  /** The client→server text that matched `when`. */
  command: string;
};

export type CuttingProxy = {
  host: '127.0.0.1';
  port: number;
  /**
   * Arms one cut: the next connection whose client sends something matching `plan.when` is cut after
   * `plan.afterBytes` more bytes from the server. Resolves when the cut has happened; once is all.
   */
  cutOnce(plan: CutPlan): Promise<CutReport>;
  /** Stops listening and destroys every connection still open. */
  close(): Promise<void>;
};

/** How much client→server text is kept to match a trigger split across two packets. */
const MATCH_WINDOW = 4_096;

/**
 * A TCP proxy on 127.0.0.1 that forwards bytes both ways unchanged, and on request cuts one connection
 * in the middle of a server answer: the client sees the connection drop after a known number of bytes,
 * as when a mail server or a NAT box goes away mid-download. Backpressure is kept in both directions.
 */
export async function startCuttingProxy(target: { host: string; port: number }): Promise<CuttingProxy> {
  const open = new Set<Socket>();
  let plan: (CutPlan & { resolve: (report: CutReport) => void }) | undefined;

  const server = createServer((client) => {
    const upstream = connect({ host: target.host, port: target.port });
    open.add(client);
    open.add(upstream);
    const destroyBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', destroyBoth);
      socket.on('close', () => {
        open.delete(socket);
        destroyBoth();
      });
    }

    // Client → server: forwarded as is, and watched for the trigger while a cut is armed.
    let seen = '';
    let cut: { remaining: number; forwarded: number; command: string; resolve: (report: CutReport) => void } | undefined;
    let severed = false;
    client.on('data', (chunk: Buffer) => {
      if (severed) return;
      if (plan && !cut) {
        seen = (seen + chunk.toString('latin1')).slice(-MATCH_WINDOW);
        const match = plan.when.exec(seen);
        if (match) {
          cut = { remaining: plan.afterBytes, forwarded: 0, command: match[0], resolve: plan.resolve };
          plan = undefined;
        }
      }
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    });

    // Server → client: counted once the trigger was seen; the byte that reaches the budget is the last.
    upstream.on('data', (chunk: Buffer) => {
      if (severed) return;
      let piece = chunk;
      if (cut) {
        piece = chunk.subarray(0, cut.remaining);
        cut.remaining -= piece.length;
        cut.forwarded += piece.length;
      }
      const flowing = piece.length === 0 || client.write(piece);
      if (cut && cut.remaining === 0) {
        const { forwarded, command, resolve } = cut;
        severed = true;
        upstream.pause();
        // Let the last bytes leave before the connection goes, so the client sees exactly `afterBytes`.
        client.end(() => {
          destroyBoth();
          resolve({ forwarded, command });
        });
        return;
      }
      if (!flowing) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the proxy has no address');

  return {
    host: '127.0.0.1',
    port: address.port,
    cutOnce(next) {
      if (plan) throw new Error('a cut is armed already');
      return new Promise<CutReport>((resolve) => {
        plan = { ...next, resolve };
      });
    },
    async close() {
      plan = undefined;
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
