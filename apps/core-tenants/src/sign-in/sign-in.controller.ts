import { Body, Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiErrors, clientAddressKey, NoStore } from '@platform/http-common';
import { SignInBody, SignInResponse } from './sign-in.dto';
import { SignInOperatorUseCase } from './sign-in-operator.use-case';

@ApiTags('Operators')
@Controller('v1/operators')
export class SignInController {
  constructor(private readonly signInOperator: SignInOperatorUseCase) {}

  @Post('sign-in')
  @NoStore()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'signInOperator',
    summary: 'Sign in an operator',
    description:
      'Answers an operator token. A wrong e-mail or password is 401 1003, the same either way. ' +
      'Attempts are limited per client IP, per address from one client (IP and User-Agent) and, far higher, per address from every ' +
      'client, which clients that signed in before pass: 429 1071 with Retry-After. When this replica is computing as many password ' +
      'hashes as it may and its queue is full: 503 5903 with Retry-After, at once.',
  })
  @ApiOkResponse({ type: SignInResponse })
  @ApiErrors('Unauthorized', 'TooManyRequests', 'InternalServiceUnavailable')
  async signIn(
    @Body() body: SignInBody,
    @Headers('user-agent') userAgent: string | undefined,
    @Req() request: FastifyRequest,
  ): Promise<SignInResponse> {
    const data = await this.signInOperator.execute({
      operatorEmail: body.operatorEmail,
      password: body.password,
      clientIp: clientAddressKey(request.ip),
      userAgent,
    });
    return { data };
  }
}
