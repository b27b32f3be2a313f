import { Injectable } from '@nestjs/common';
import { CheckOperatorEmailReply } from '@platform/contracts';
import { OperatorsRepository } from './operators.repository';

export interface CheckOperatorEmailCommand {
  email: string;
}

/** Whether an address already has an account: services-api's mail job sends no code to one that has. */
@Injectable()
export class CheckOperatorEmailUseCase {
  constructor(private readonly operators: OperatorsRepository) {}

  async execute(command: CheckOperatorEmailCommand): Promise<CheckOperatorEmailReply> {
    return { hasAccount: await this.operators.existsWithEmail(command.email) };
  }
}
