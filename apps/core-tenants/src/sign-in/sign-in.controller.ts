import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiErrors } from '@platform/http-common';
import { SignInBody, SignInResponse } from './sign-in.dto';
import { SignInOperatorUseCase } from './sign-in-operator.use-case';

@ApiTags('Operators')
@Controller('v1/operators')
export class SignInController {
  constructor(private readonly signInOperator: SignInOperatorUseCase) {}

  @Post('sign-in')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in an operator',
    description:
      'Answers an operator token. A wrong e-mail or password is 401 1003, the same either way. ' +
      'Attempts are limited per address and per client IP: 429 1071 with Retry-After.',
  })
  @ApiOkResponse({ type: SignInResponse })
  @ApiErrors('Unauthorized', 'TooManyRequests')
  async signIn(@Body() body: SignInBody, @Req() request: FastifyRequest): Promise<SignInResponse> {
    return { data: await this.signInOperator.execute({ operatorEmail: body.operatorEmail, password: body.password, clientIp: request.ip }) };
  }
}
