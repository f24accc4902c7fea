// Loaded into the server by `bench/start.bench.ts --breakdown` (node --import): on SIGUSR2 it writes what
// each thread holds to the file in CLEARBASE_BENCH_PROBE_OUT. The main thread reads its own V8 heap and the
// WebAssembly memories it created (PGlite's), and asks every worker thread (intake, inspector, reader,
// tesseract's, and tsx's loader threads) for its heap through the inspector's NodeWorker domain, so nothing
// in the server's own code is involved. Not loaded by the plain measurement: the figures come without it.
import inspector from 'node:inspector';
import { readFileSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import { isMainThread } from 'node:worker_threads';

const OUT = process.env.CLEARBASE_BENCH_PROBE_OUT;

if (isMainThread && OUT) {
  /** WebAssembly memories, held weakly: a PGlite closed and collected drops out. */
  const memories = [];
  const keep = (memory) => memories.push(new WeakRef(memory));
  const keepExported = (instance) => {
    for (const value of Object.values(instance.exports)) if (value instanceof WebAssembly.Memory) keep(value);
  };
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = function (...args) {
    return instantiate.apply(this, args).then((result) => {
      keepExported(result instanceof WebAssembly.Instance ? result : result.instance);
      return result;
    });
  };
  WebAssembly.Memory = new Proxy(WebAssembly.Memory, {
    construct(target, args) {
      const memory = Reflect.construct(target, args);
      keep(memory);
      return memory;
    },
  });

  const session = new inspector.Session();
  session.connect();
  const workers = new Map();
  const waiting = new Map();
  let nextId = 1;
  session.on('NodeWorker.attachedToWorker', ({ params }) => workers.set(params.sessionId, params.workerInfo));
  session.on('NodeWorker.detachedFromWorker', ({ params }) => workers.delete(params.sessionId));
  session.on('NodeWorker.receivedMessageFromWorker', ({ params }) => {
    const message = JSON.parse(params.message);
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });

  const askWorker = (sessionId) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, (message) => resolve(message.result?.result?.value ? JSON.parse(message.result.result.value) : null));
      const evaluate = { id, method: 'Runtime.evaluate', params: { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true } };
      session.post('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify(evaluate) });
      setTimeout(() => {
        if (waiting.delete(id)) resolve(null);
      }, 3_000);
    });

  const mb = (bytes) => Math.round(bytes / 1e5) / 10;
  process.on('SIGUSR2', () => {
    void (async () => {
      const usage = process.memoryUsage();
      const status = Object.fromEntries(
        readFileSync('/proc/self/status', 'utf8')
          .split('\n')
          .filter((line) => /^(VmRSS|VmHWM|RssAnon|RssFile|Threads):/.test(line))
          .map((line) => line.split(/:\s+/)),
      );
      const threads = [
        {
          thread: 'main',
          heapTotalMb: mb(usage.heapTotal),
          heapUsedMb: mb(usage.heapUsed),
          externalMb: mb(usage.external),
          wasmMb: memories.map((ref) => ref.deref()?.buffer.byteLength ?? 0).filter((bytes) => bytes > 0).map(mb),
          codeMb: mb(v8.getHeapSpaceStatistics().find((space) => space.space_name === 'code_space')?.space_used_size ?? 0),
        },
      ];
      for (const [sessionId, info] of workers) {
        const worker = await askWorker(sessionId);
        const name = info.title.replace(/^\[worker \d+\]\s*/, '') || (info.url.includes('modules/esm/worker') ? 'module loader (tsx)' : info.url);
        threads.push({ thread: name, heapTotalMb: worker ? mb(worker.heapTotal) : null, heapUsedMb: worker ? mb(worker.heapUsed) : null, externalMb: worker ? mb(worker.external) : null });
      }
      writeFileSync(OUT, JSON.stringify({ status, threads }));
    })();
  });
}
