import { describe, expect, it } from 'vitest';
import type { TServiceHealth } from '../../contract';
import { MASTER_KEY_NOT_BACKED_UP, withMasterKeyBackup } from './master-key-check';

const storageUp = () => Promise.resolve<TServiceHealth>({ status: 'ok', message: 'Local encrypted storage: write and read OK' });
const storageDown = () => Promise.reject(new Error('EIO: i/o error'));

describe('the master key backup warning on the storage line', () => {
  it('makes a working storage a warning until the key is backed up', async () => {
    expect(await withMasterKeyBackup(storageUp, () => Promise.resolve(false), () => undefined)()).toEqual({
      status: 'warning',
      message: `${MASTER_KEY_NOT_BACKED_UP} Local encrypted storage: write and read OK`,
    });
    expect(await withMasterKeyBackup(storageUp, () => Promise.resolve(true), () => undefined)()).toEqual({ status: 'ok', message: 'Local encrypted storage: write and read OK' });
  });

  it('leaves a failing storage to fail as it does, and a state it cannot read to the log', async () => {
    await expect(withMasterKeyBackup(storageDown, () => Promise.resolve(false), () => undefined)()).rejects.toThrow('EIO');
    const logged: unknown[] = [];
    const check = withMasterKeyBackup(storageUp, () => Promise.reject(new Error('database gone')), (error) => logged.push(error));
    expect(await check()).toEqual({ status: 'ok', message: 'Local encrypted storage: write and read OK' });
    expect(logged).toHaveLength(1);
  });
});
