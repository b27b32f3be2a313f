import { DynamicModule, Module } from '@nestjs/common';
import { GetMyPresenceUseCase } from './get-my-presence.use-case';
import { ListPresenceUseCase } from './list-presence.use-case';
import { PresenceEvents } from './presence-events';
import { PresenceReconciler } from './presence-reconciler';
import { PRESENCE_SETTINGS, PresenceSettings } from './presence-settings';
import { PresenceController } from './presence.controller';
import { PresenceRepository } from './presence.repository';
import { SetMyPresenceUseCase } from './set-my-presence.use-case';

/** Operator presence (docs/presence.md): the routes and the reconciler that follows the sockets. */
@Module({})
export class PresenceModule {
  static forRoot(settings: PresenceSettings): DynamicModule {
    return {
      module: PresenceModule,
      controllers: [PresenceController],
      providers: [
        { provide: PRESENCE_SETTINGS, useValue: settings },
        PresenceRepository,
        PresenceEvents,
        SetMyPresenceUseCase,
        GetMyPresenceUseCase,
        ListPresenceUseCase,
        PresenceReconciler,
      ],
    };
  }
}
