import { Injectable } from '@nestjs/common';

/**
 * The time as the helpdesk's rules see it (refresh throttle, lastCheckedAt,
 * verifiedAt). One injectable so tests can move time without sleeping.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
