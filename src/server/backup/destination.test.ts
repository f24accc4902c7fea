import { describe, expect, it } from 'vitest';
import { DestinationError, parseS3Location } from './destination';

describe('parseS3Location', () => {
  it('reads a bucket and the folder in it, without a trailing slash', () => {
    expect(parseS3Location('s3://league-backups/clearbase')).toEqual({ bucket: 'league-backups', folder: 'clearbase' });
    expect(parseS3Location(' s3://league-backups/club/nightly/ ')).toEqual({ bucket: 'league-backups', folder: 'club/nightly' });
  });

  it('is not concerned with a folder on this machine', () => {
    expect(parseS3Location('/mnt/backup/clearbase')).toBeUndefined();
    expect(parseS3Location('backups')).toBeUndefined();
  });

  it('refuses a bucket alone, a name S3 does not allow, and a folder that climbs out', () => {
    expect(() => parseS3Location('s3://league-backups')).toThrow(new DestinationError('Name a folder in the bucket too, such as s3://league-backups/clearbase: the backups are kept, and old ones removed, there.'));
    expect(() => parseS3Location('s3://League_Backups/x')).toThrow(/is not a bucket name S3 allows/);
    expect(() => parseS3Location('s3://league-backups/a/../b')).toThrow(/is not a folder name Clearbase can use/);
    expect(() => parseS3Location('s3://league-backups/a//b')).toThrow(/is not a folder name Clearbase can use/);
  });
});
