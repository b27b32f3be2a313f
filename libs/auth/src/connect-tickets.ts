import { Inject, Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { decodeJwt } from 'jose';
import { parseAuthorizationHeader } from './authorization-header';
import { CacheSeal } from './cache-seal';
import { generateSecretToken, hashSecretToken } from './secret-tokens';

/** What a connect ticket lets its bearer open: one operator's socket on one tenant, until `credentialExpiresAtMs`. */
export interface ConnectTicketGrant {
  operatorID: string;
  tenantID: string;
  /** When the operator token the ticket was asked with expires: the socket closes then. */
  credentialExpiresAtMs: number;
}

/** Seconds a ticket may wait to be used: long enough for a browser to open a socket, too short to be worth stealing. */
export const CONNECT_TICKET_TTL_SECONDS = 30;

/** Only the ticket's hash names the key: a Redis reader learns no usable ticket. */
const ticketKey = (ticketHash: string) => `auth:v2:connect-ticket:${ticketHash}`;

/**
 * Short-lived, single-use tickets with which an operator's browser opens a
 * real-time socket (docs/realtime.md, Operators), so that the operator token
 * never travels in a URL. services-api issues one to an authenticated member
 * of the tenant; the real-time gateway consumes it atomically (GETDEL), so a
 * ticket opens at most one socket, on whichever replica sees it first.
 *
 * The stored grant is sealed (cache-seal.ts) under its key name and the
 * ticket's expiry: whoever can write to Redis cannot mint a ticket.
 */
@Injectable()
export class ConnectTickets {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly seal: CacheSeal,
  ) {}

  /** Stores a new ticket for the grant; answers the ticket and when it lapses. Throws when Redis fails. */
  async issue(grant: ConnectTicketGrant, nowMs = Date.now()): Promise<{ ticket: string; expiresAtMs: number }> {
    const ticket = generateSecretToken();
    const key = ticketKey(hashSecretToken(ticket));
    const expiresAtMs = Math.min(nowMs + CONNECT_TICKET_TTL_SECONDS * 1000, grant.credentialExpiresAtMs);
    await this.redis.set(key, this.seal.seal(key, JSON.stringify(grant), expiresAtMs), 'PX', Math.max(1, expiresAtMs - nowMs));
    return { ticket, expiresAtMs };
  }

  /** The grant of a ticket, at most once: undefined when unknown, used, lapsed or forged. Throws when Redis fails. */
  async consume(ticket: string, nowMs = Date.now()): Promise<ConnectTicketGrant | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(ticket)) return undefined;
    const key = ticketKey(hashSecretToken(ticket));
    const stored = await this.redis.getdel(key);
    const opened = stored === null ? undefined : this.seal.open('connect-ticket', key, stored, nowMs);
    if (opened === undefined) return undefined;
    const grant = JSON.parse(opened) as ConnectTicketGrant;
    return grant.credentialExpiresAtMs > nowMs ? grant : undefined;
  }
}

/**
 * When the operator token in an Authorization header the guard already
 * verified expires, in ms since the epoch: a ticket's socket lives no longer.
 */
export function operatorTokenExpiryOf(authorization: string | undefined): number {
  const credential = parseAuthorizationHeader(authorization);
  const expiry = credential.profile === 'operator' ? decodeJwt(credential.jwt).exp : undefined;
  if (expiry === undefined) throw new AppException('Unauthorized');
  return expiry * 1000;
}
