import { Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';

export const KNOWN_CLIENT_TTL_SECONDS = Symbol('KNOWN_CLIENT_TTL_SECONDS');

const key = (address: string, client: string) => `signin:v1:known:${address}:${client}`;

/**
 * The clients (address and User-Agent, `signInClientOf`) each e-mail address
 * signed in from lately, in Redis. A known client still signs in when the
 * address's ceiling of attempts is used up: whoever spent it, with guesses
 * from elsewhere, does not lock the account's owner out.
 */
@Injectable()
export class KnownSignInClients {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(KNOWN_CLIENT_TTL_SECONDS) private readonly ttlSeconds: number,
  ) {}

  /** Remembers a client the address signed in from, for the configured days after its last sign-in. */
  async remember(address: string, client: string): Promise<void> {
    await this.redis.set(key(address, client), '1', 'EX', this.ttlSeconds);
  }

  async isKnown(address: string, client: string): Promise<boolean> {
    return (await this.redis.exists(key(address, client))) === 1;
  }
}
