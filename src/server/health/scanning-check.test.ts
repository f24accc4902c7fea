import { describe, expect, it } from 'vitest';
import type { TServiceHealth } from '../../contract';
import { describeFailedScans, SCANNER_DID_NOT_ANSWER, withFailedScanCount } from './scanning-check';

const clamdUp = () => Promise.resolve<TServiceHealth>({ status: 'ok', message: 'ClamAV 1.4.2 at tcp://clamd:3310' });
const clamdDown = () => Promise.reject(new Error("connect ENOENT /run/clamav/clamd.ctl"));

describe('documents waiting for a failed virus scan on the antivirus line', () => {
  it('counts them in words, one or many, retried or past their day of retries', () => {
    expect(describeFailedScans({ waiting: 0, stopped: 0 })).toBeUndefined();
    expect(describeFailedScans({ waiting: 1, stopped: 0 })).toBe('1 document waits for a virus scan that failed; it is retried automatically');
    expect(describeFailedScans({ waiting: 3, stopped: 0 })).toBe('3 documents wait for a virus scan that failed; they are retried automatically');
    expect(describeFailedScans({ waiting: 2, stopped: 2 })).toBe('2 documents wait for a virus scan that has failed for a day; press Retry on the Documents screen');
    expect(describeFailedScans({ waiting: 3, stopped: 1 })).toBe(
      '3 documents wait for a virus scan that failed; 1 of them failed for a day and needs Retry on the Documents screen, the others are retried automatically',
    );
  });

  it('leaves the check as it is when none wait, a failure included', async () => {
    const none = () => Promise.resolve({ waiting: 0, stopped: 0 });
    expect(await withFailedScanCount(clamdUp, none, () => undefined)()).toEqual({ status: 'ok', message: 'ClamAV 1.4.2 at tcp://clamd:3310' });
    await expect(withFailedScanCount(clamdDown, none, () => undefined)()).rejects.toThrow('ENOENT');
  });

  it('makes an answering clamd a warning while documents still wait', async () => {
    const check = withFailedScanCount(clamdUp, () => Promise.resolve({ waiting: 3, stopped: 0 }), () => undefined);
    expect(await check()).toEqual({
      status: 'warning',
      message: '3 documents wait for a virus scan that failed; they are retried automatically. ClamAV 1.4.2 at tcp://clamd:3310',
    });
  });

  it('with clamd down says so in plain words and hands the error, path and all, to the log only', async () => {
    const logged: unknown[] = [];
    const check = withFailedScanCount(clamdDown, () => Promise.resolve({ waiting: 1, stopped: 0 }), (error) => logged.push(error));
    const health = await check();
    expect(health).toEqual({ status: 'error', message: `1 document waits for a virus scan that failed; it is retried automatically. ${SCANNER_DID_NOT_ANSWER}` });
    expect(health.message).not.toContain('/run/');
    expect(logged).toHaveLength(1);
  });

  it('answers the check alone when the count cannot be read', async () => {
    const check = withFailedScanCount(clamdUp, () => Promise.reject(new Error('database gone')), () => undefined);
    expect(await check()).toEqual({ status: 'ok', message: 'ClamAV 1.4.2 at tcp://clamd:3310' });
  });
});
