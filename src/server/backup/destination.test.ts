import { describe, expect, it } from 'vitest';
import { bucketProblem, DestinationError, parseS3Location } from './destination';

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

describe('bucketProblem', () => {
  it('says in words why a bucket could not be listed, keeping S3\u2019s code', () => {
    expect(bucketProblem('S3 list of s3://b/x/ failed: NoSuchBucket (HTTP 404): The specified bucket does not exist')).toBe('there is no such bucket (NoSuchBucket).');
    expect(bucketProblem('S3 list of s3://b/x/ failed: AccessDenied (HTTP 403): Access Denied')).toBe('the S3 keys Clearbase was given may not use that bucket (AccessDenied).');
    expect(bucketProblem('S3 list of s3://b/x/ failed: PermanentRedirect (HTTP 301): use the eu-west-1 endpoint')).toBe('the bucket is in another region than S3_REGION says (PermanentRedirect).');
    expect(bucketProblem('S3 list of s3://b/x/ failed: connect ECONNREFUSED 127.0.0.1:1')).toBe('the S3 server does not answer; check S3_ENDPOINT and the network (connect ECONNREFUSED 127.0.0.1:1).');
    expect(bucketProblem('S3 list of s3://b/x/ failed: SlowDown (HTTP 503)')).toBe('S3 list of s3://b/x/ failed: SlowDown (HTTP 503)');
  });
});
