import { AppException } from '@platform/errors';
import { IsDefined, IsOptional, IsUUID } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { RequestValidationPipe } from './request-validation.pipe';
import { IsIntegerInRange } from './validators';

class PageQuery {
  @IsOptional()
  @IsIntegerInRange(1, 200)
  perPage?: string;
}

class RequiredQuery {
  @IsDefined()
  @IsIntegerInRange(1, 200)
  perPage?: string;
}

class TenantParams {
  @IsUUID()
  tenantID!: string;
}

const pipe = new RequestValidationPipe();

async function fieldsOf(work: Promise<unknown>): Promise<unknown> {
  const error: unknown = await work.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppException);
  return (error as AppException).fields;
}

describe('RequestValidationPipe', () => {
  it('accepts an empty query as often as it is sent, each time as a new instance', async () => {
    const first = await pipe.transform({}, { type: 'query', metatype: PageQuery });
    const second = await pipe.transform(undefined, { type: 'query', metatype: PageQuery });
    expect(first).toBeInstanceOf(PageQuery);
    expect(second).toBeInstanceOf(PageQuery);
    expect(second).not.toBe(first);
  });

  it('still checks a query with values after an empty one of the same class passed', async () => {
    await pipe.transform({}, { type: 'query', metatype: PageQuery });
    expect(await fieldsOf(pipe.transform({ perPage: '0' }, { type: 'query', metatype: PageQuery }))).toEqual([
      { field: 'perPage', received: '0', allowed: 'integer 1-200' },
    ]);
    expect(await fieldsOf(pipe.transform({ page: '2' }, { type: 'query', metatype: PageQuery }))).toEqual([
      { field: 'page', received: '2', allowed: 'no such field' },
    ]);
  });

  it('refuses an empty query with the same fields every time when a field is required', async () => {
    const first = await fieldsOf(pipe.transform({}, { type: 'query', metatype: RequiredQuery }));
    const second = await fieldsOf(pipe.transform({}, { type: 'query', metatype: RequiredQuery }));
    expect(first).toEqual([{ field: 'perPage', received: expect.anything() as unknown, allowed: 'required' }]);
    expect(second).toEqual(first);
  });

  it('accepts the same path parameters as often as they are sent, and still refuses others', async () => {
    const tenantID = '0b7e7a4e-8a52-4e3c-9f1e-2d4c1b6a9f10';
    const first = await pipe.transform({ tenantID }, { type: 'param', metatype: TenantParams });
    const second = await pipe.transform({ tenantID }, { type: 'param', metatype: TenantParams });
    expect(second).toBeInstanceOf(TenantParams);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(await fieldsOf(pipe.transform({ tenantID: 'not-a-uuid' }, { type: 'param', metatype: TenantParams }))).toEqual([
        { field: 'tenantID', received: 'not-a-uuid', allowed: expect.any(String) as unknown },
      ]);
    }
    expect(await fieldsOf(pipe.transform({ tenantID, extra: 'x' }, { type: 'param', metatype: TenantParams }))).toEqual([
      { field: 'extra', received: 'x', allowed: 'no such field' },
    ]);
  });
});
