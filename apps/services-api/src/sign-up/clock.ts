import { Injectable } from '@nestjs/common';

/**
 * The time every sign-up rule reads (code expiry, the per-minute limit,
 * invitation expiry). One injectable instance, so tests can move time
 * instead of waiting for it.
 */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }
}
