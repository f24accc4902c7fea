import { describe, expect, it } from 'vitest';
import { describeFailure } from './describe-failure';

describe('describeFailure', () => {
  it("says a failed statement's cause and never the rows it carried", () => {
    const failed = new Error('Failed query: insert into "players" select … params: [{"guardian_email":"ana@example.org"}]', {
      cause: new Error('duplicate key value violates unique constraint "players_pkey"'),
    });
    expect(describeFailure(failed)).toBe('a database statement failed (duplicate key value violates unique constraint "players_pkey")');
    expect(describeFailure(new Error('Failed query: select 1 params: secret'))).toBe('a database statement failed');
  });

  it('passes any other message on as it is', () => {
    expect(describeFailure(new Error('ENOSPC: no space left on device'))).toBe('ENOSPC: no space left on device');
    expect(describeFailure('plain')).toBe('plain');
  });
});
