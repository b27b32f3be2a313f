/** A slice of one ordered range of rows: skip `offset`, take up to `limit`. */
export interface RangeSlice {
  offset: number;
  limit: number;
}

/**
 * Operation 7 lists two ranges one after the other: the operator's personal
 * shortcuts (`firstCount` of them), then the company-wide ones. Given the
 * page's offset and size, which part of each range the page covers.
 */
export function splitPage(offset: number, perPage: number, firstCount: number): { first: RangeSlice; second: RangeSlice } {
  const fromFirst = Math.max(0, Math.min(perPage, firstCount - offset));
  return {
    first: { offset: Math.min(offset, firstCount), limit: fromFirst },
    second: { offset: Math.max(0, offset - firstCount), limit: perPage - fromFirst },
  };
}
