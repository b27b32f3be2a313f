import { Module } from '@nestjs/common';
import { KnownSignInClients } from './known-sign-in-clients';
import { OperatorCredentialsRepository } from './operator-credentials.repository';
import { SignInController } from './sign-in.controller';
import { SignInOperatorUseCase } from './sign-in-operator.use-case';

@Module({ controllers: [SignInController], providers: [OperatorCredentialsRepository, KnownSignInClients, SignInOperatorUseCase] })
export class SignInModule {}
