import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppException, renderReceived } from '@platform/errors';
import { KeySet, MacKeys } from '@platform/keyring';
import { ValidateBy } from 'class-validator';

/**
 * A keyset-paged list's positions as text: what `meta.nextCursor` carries
 * (docs/http-conventions.md, Keyset pages). `parse` is the inverse of
 * `format` and refuses anything `format` cannot have made, so a position
 * reaches the database only as values it can hold.
 */
export interface KeysetList<Position> {
  /** The list's name, bound into each cursor's MAC: a cursor of one list is refused by another. */
  name: string;
  format(position: Position): string;
  parse(text: string): Position | undefined;
}

/** The `allowed` text of a refused cursor. */
export const CURSOR_ALLOWED = 'a cursor from meta.nextCursor of this list';
/** Longer than any cursor this API makes: a longer one is refused before its MAC is computed. */
export const MAX_CURSOR_LENGTH = 300;
const CURSOR_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;
const CURSOR_MAC = { hkdf: { salt: 'keyset-cursor', info: 'page-cursor-mac' } } as const;

/**
 * The one codec of every keyset cursor: `base64url(position) "." base64url(HMAC-SHA256)`,
 * the MAC over the list's name and the position under the app's cursor keys
 * (`@platform/keyring`, HKDF of the configured secret for this purpose). A
 * cursor this API did not make (forged, altered, of another list, or made
 * under a key no longer in the set) is 400 1002 naming the parameter.
 */
export class KeysetCursors {
  private readonly macs: MacKeys;

  constructor(keys: KeySet) {
    this.macs = new MacKeys(keys, CURSOR_MAC);
  }

  issue<Position>(list: KeysetList<Position>, position: Position): string {
    const text = list.format(position);
    return `${Buffer.from(text, 'utf8').toString('base64url')}.${this.macs.sign(signed(list, text)).toString('base64url')}`;
  }

  /** The position `cursor` names, or 400 1002 on `parameter` when this API did not make it for `list`. */
  read<Position>(list: KeysetList<Position>, cursor: string, parameter = 'cursor'): Position {
    const position = this.positionOf(list, cursor);
    if (position === undefined) throw AppException.validation([{ field: parameter, received: renderReceived(cursor), allowed: CURSOR_ALLOWED }]);
    return position;
  }

  private positionOf<Position>(list: KeysetList<Position>, cursor: string): Position | undefined {
    if (!isCursorShaped(cursor)) return undefined;
    const [encoded, mac] = cursor.split('.');
    const text = Buffer.from(encoded, 'base64url').toString('utf8');
    if (!this.macs.verify(signed(list, text), Buffer.from(mac, 'base64url'))) return undefined;
    return list.parse(text);
  }
}

function signed(list: KeysetList<unknown>, text: string): string {
  return `${list.name}\n${text}`;
}

function isCursorShaped(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_CURSOR_LENGTH && CURSOR_SHAPE.test(value);
}

/**
 * A cursor query parameter's shape, checked with the query's other rules;
 * its MAC and position are checked by `KeysetCursors.read`, which holds the
 * keys, with the same 400 1002.
 */
export function IsKeysetCursor(): PropertyDecorator {
  return ValidateBy({ name: 'isKeysetCursor', validator: { validate: isCursorShaped } }, { message: CURSOR_ALLOWED });
}

/** Provides the app's one KeysetCursors to every module, under the keys given (docs/security.md, Keys and rotation). */
@Global()
@Module({})
export class KeysetCursorsModule {
  static forRoot(keys: KeySet): DynamicModule {
    return { module: KeysetCursorsModule, providers: [{ provide: KeysetCursors, useValue: new KeysetCursors(keys) }], exports: [KeysetCursors] };
  }
}
