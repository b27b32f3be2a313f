import { describe, expect, it } from 'vitest';
import { listMeta, MAX_PAGE, offsetOf, pageRequestOf, pageStatus, sessionListMeta } from './pagination';

describe('pagination', () => {
  it('defaults to page 1 of 20', () => {
    expect(pageRequestOf({})).toEqual({ page: 1, perPage: 20 });
    expect(pageRequestOf({ page: '3', perPage: '50' })).toEqual({ page: 3, perPage: 50 });
  });

  it('builds exact list meta and the 200/206 rule', () => {
    const first = listMeta({ page: 1, perPage: 2 }, 5, 2);
    expect(first).toEqual({ count: 2, currentPage: 1, hasMore: true, perPage: 2, totalCount: 5, totalPages: 3 });
    expect(pageStatus(first)).toBe(206);
    const last = listMeta({ page: 3, perPage: 2 }, 5, 1);
    expect(last).toEqual({ count: 1, currentPage: 3, hasMore: false, perPage: 2, totalCount: 5, totalPages: 3 });
    expect(pageStatus(last)).toBe(200);
    expect(listMeta({ page: 1, perPage: 20 }, 0, 0)).toEqual({ count: 0, currentPage: 1, hasMore: false, perPage: 20, totalCount: 0, totalPages: 0 });
  });

  it('says nothing more exists past the end, however far', () => {
    expect(listMeta({ page: MAX_PAGE, perPage: 200 }, 10, 0).hasMore).toBe(false);
    expect(sessionListMeta({ page: 2, perPage: 1 }, 3)).toEqual({ currentPage: 2, hasMore: true, perPage: 1, totalCount: 3 });
  });

  it('gives no offset for a page that starts past the rows or past safe integers', () => {
    expect(offsetOf({ page: 2, perPage: 10 }, 25)).toBe(10);
    expect(offsetOf({ page: 3, perPage: 10 }, 20)).toBeUndefined();
    expect(offsetOf({ page: MAX_PAGE, perPage: 200 }, 1_000_000)).toBeUndefined();
  });
});
