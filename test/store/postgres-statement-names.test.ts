import { describe, expect, it } from 'vitest';
import { statement } from '../../src/store/postgres/sql-statement.js';

describe('the names of the PostgreSQL store’s statements', () => {
  it('fit in the 63 bytes the server keeps, and two texts under one long name stay two names', () => {
    const long = 'page_since_until_before_mode_status_build_scenario';
    const a = statement(long, 'SELECT 1');
    const b = statement(long, 'SELECT 2');
    expect(Buffer.byteLength(a.name)).toBeLessThanOrEqual(63);
    expect(a.name.slice(0, 63)).not.toBe(b.name.slice(0, 63));
    expect(a.name).toMatch(/^forkpoint_page_since_until_before_mode_status_buil_[0-9a-f]{12}$/);
    // A short name is kept whole.
    expect(statement('get_run', 'SELECT 1').name).toMatch(/^forkpoint_get_run_[0-9a-f]{12}$/);
  });
});
