import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsIntegerInRange } from './validators';

/** docs/http-conventions.md, Paged lists: page numbers run from 1 to 9007199254740991 (Number.MAX_SAFE_INTEGER). */
export const MAX_PAGE = Number.MAX_SAFE_INTEGER;
export const DEFAULT_PER_PAGE = 20;

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PageQueryFields {
  page?: string;
  perPage?: string;
}

/**
 * The `page`/`perPage` query of a list whose page size is bounded by
 * `maxPerPage` (200 for most lists, 50 for contact sessions). Extend it with
 * the list's own parameters.
 */
export function PaginationQuery(maxPerPage: number): new () => PageQueryFields {
  class PaginationQueryDto implements PageQueryFields {
    @ApiPropertyOptional({ description: `Page number, 1-${MAX_PAGE}`, example: '1', default: 1 })
    @IsOptional()
    @IsIntegerInRange(1, MAX_PAGE)
    page?: string;

    @ApiPropertyOptional({ description: `Page size, 1-${maxPerPage}`, example: String(DEFAULT_PER_PAGE), default: DEFAULT_PER_PAGE })
    @IsOptional()
    @IsIntegerInRange(1, maxPerPage)
    perPage?: string;
  }
  return PaginationQueryDto;
}

/** Reads a validated pagination query into numbers, with defaults. */
export function pageRequestOf(query: PageQueryFields): PageRequest {
  return {
    page: query.page === undefined ? 1 : Number(query.page),
    perPage: query.perPage === undefined ? DEFAULT_PER_PAGE : Number(query.perPage),
  };
}

/**
 * Rows to skip for a page, or undefined when the page starts past any table
 * we could hold (the caller answers an empty page without querying rows).
 */
export function offsetOf(request: PageRequest, totalCount: number): number | undefined {
  const offset = pageOffsetOf(request);
  return offset !== undefined && offset < totalCount ? offset : undefined;
}

/** Rows to skip for a page whatever the count, or undefined when that is not a safe integer. */
export function pageOffsetOf(request: PageRequest): number | undefined {
  const offset = (request.page - 1) * request.perPage;
  return Number.isSafeInteger(offset) ? offset : undefined;
}

/**
 * `meta` of every paged list but contact sessions (docs/http-conventions.md, Paged lists):
 * one class, so every list documents it as the one `ListMeta` component.
 */
@ApiSchema({ name: 'ListMeta' })
export class ListMetaDto {
  @ApiProperty() count!: number;
  @ApiProperty() currentPage!: number;
  @ApiProperty() hasMore!: boolean;
  @ApiProperty() perPage!: number;
  @ApiProperty() totalCount!: number;
  @ApiProperty() totalPages!: number;
}

/** `meta` of contact sessions. */
@ApiSchema({ name: 'SessionListMeta' })
export class SessionListMetaDto {
  @ApiProperty() currentPage!: number;
  @ApiProperty() hasMore!: boolean;
  @ApiProperty() perPage!: number;
  @ApiProperty() totalCount!: number;
}

function hasMoreAfter(request: PageRequest, totalCount: number): boolean {
  return request.page < Math.ceil(totalCount / request.perPage);
}

export function listMeta(request: PageRequest, totalCount: number, count: number): ListMetaDto {
  return {
    count,
    currentPage: request.page,
    hasMore: hasMoreAfter(request, totalCount),
    perPage: request.perPage,
    totalCount,
    totalPages: Math.ceil(totalCount / request.perPage),
  };
}

export function sessionListMeta(request: PageRequest, totalCount: number): SessionListMetaDto {
  return { currentPage: request.page, hasMore: hasMoreAfter(request, totalCount), perPage: request.perPage, totalCount };
}

/** docs/http-conventions.md, Paged lists: a paged list answers 206 when more pages exist, else 200. */
export function pageStatus(meta: { hasMore: boolean }): 200 | 206 {
  return meta.hasMore ? 206 : 200;
}
