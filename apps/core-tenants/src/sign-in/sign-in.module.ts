import { Module } from '@nestjs/common';
import { OperatorCredentialsRepository } from './operator-credentials.repository';
import { SignInController } from './sign-in.controller';
import { SignInOperatorUseCase } from './sign-in-operator.use-case';

@Module({ controllers: [SignInController], providers: [OperatorCredentialsRepository, SignInOperatorUseCase] })
export class SignInModule {}
