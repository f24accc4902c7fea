import type { Readable } from 'node:stream';

/** A scan's verdict. A file that could not be scanned is never a verdict: it is an AntivirusUnavailableError. */
export type ScanResult = { clean: true } | { clean: false; signature: string };

/** Virus scanning of file bytes before they are stored (clamd in production, a fake in unit tests). */
export interface Antivirus {
  /** Reads the source to its end (a stream is destroyed if the scan stops early). */
  scan(source: Readable | Buffer): Promise<ScanResult>;
  ping(): Promise<{ version: string }>;
  /** Where the scanner is, for health and settings screens: `tcp://host:port` or `unix:/path`. */
  readonly location: string;
}

/**
 * Why a scan produced no verdict. All of them mean "try again later" to the pipeline, but `size-limit`
 * will keep failing for the same file until the scanner's limit is raised, so callers may report it differently.
 */
export type AntivirusFailureReason = 'unreachable' | 'timeout' | 'size-limit' | 'scan-error' | 'protocol';

/** The scanner is unreachable, timed out, or answered with an error: callers keep the file unscanned and retry later. */
export class AntivirusUnavailableError extends Error {
  override readonly name = 'AntivirusUnavailableError';

  constructor(
    message: string,
    readonly reason: AntivirusFailureReason = 'unreachable',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
