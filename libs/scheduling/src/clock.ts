import { Injectable } from '@nestjs/common';

/**
 * The time every rule of the platform reads (code and invitation expiry, the
 * per-minute limits, the domain refresh throttle, lastCheckedAt). One
 * injectable per app, provided by AppFoundationModule, so tests move time
 * instead of waiting for it, and use cases take it as a port.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
