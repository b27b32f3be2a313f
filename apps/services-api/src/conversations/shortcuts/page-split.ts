/** A slice of one ordered range of rows: skip `offset`, take up to `limit`. */
export interface RangeSlice {
  offset: number;
  limit: number;
  /** Read the range from its end (`offset` then counts from the last row). */
  backward?: boolean;
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

/**
 * The same rows of a range of `rangeSize` rows, read from whichever end is
 * nearer: skipping rows costs one index entry each, so a page in the second
 * half of a long range is read backwards from its end (the last page then
 * costs what the first does).
 */
export function fromNearerEnd(slice: RangeSlice, rangeSize: number): RangeSlice {
  const limit = Math.max(0, Math.min(slice.limit, rangeSize - slice.offset));
  const fromEnd = rangeSize - slice.offset - limit;
  return fromEnd < slice.offset ? { offset: fromEnd, limit, backward: true } : { offset: slice.offset, limit };
}
