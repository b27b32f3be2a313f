import { Body, Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import type { FastifyRequest } from 'fastify';
import { AcceptInvitationUseCase } from './accept-invitation.use-case';
import { CompleteSignUpUseCase } from './complete-sign-up.use-case';
import { InviteOperatorUseCase } from './invite-operator.use-case';
import { mailLanguageOf } from './mail/mail-language';
import { RequestEmailVerificationUseCase } from './request-email-verification.use-case';
import {
  AcceptedInvitationResponse,
  AcceptInvitationBody,
  EmailVerificationBody,
  EmailVerificationResponse,
  InvitationBody,
  InvitationResponse,
  SignUpBody,
  SignUpResponse,
} from './sign-up.dto';
import { ApiErrors, clientAddressKey, NoStore, TenantParams } from '@platform/http-common';
import { Idempotent, IdempotencyClaim, IdempotencyKeyClaim } from '@platform/idempotency';

const LANGUAGE_HEADER = {
  name: 'accept-language',
  required: false,
  description: 'Chooses the mail\'s language: pt (any region) gives pt-BR, en gives English, by weight; pt-BR otherwise.',
};

@ApiTags('Operators')
@Controller('v1')
export class SignUpController {
  constructor(
    private readonly verification: RequestEmailVerificationUseCase,
    private readonly signUp: CompleteSignUpUseCase,
    private readonly invitations: InviteOperatorUseCase,
    private readonly acceptance: AcceptInvitationUseCase,
  ) {}

  /** Operation 8 (docs/sign-up.md, Operation 8 step by step). */
  @Post('operators/email-verification')
  @HttpCode(202)
  @ApiHeader(LANGUAGE_HEADER)
  @ApiOperation({
    operationId: 'requestEmailVerification',
    summary: 'Request operator email verification',
    description:
      'Mails a six-digit code valid 10 minutes (in the background). One request per address per minute and a per-IP limit: 429 1071 with ' +
      'Retry-After. Disposable or undeliverable domains: 422 1847. An address that already has an account gets the same 202 and no mail.',
  })
  @ApiErrors('OperatorEmailDisposable', 'TooManyRequests', 'EmailVerificationUnavailable')
  @ApiAcceptedResponse({ type: EmailVerificationResponse })
  async requestVerification(
    @Body() body: EmailVerificationBody,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Req() request: FastifyRequest,
  ): Promise<EmailVerificationResponse> {
    const data = await this.verification.execute({
      operatorEmail: body.operatorEmail,
      operatorFirstname: body.operatorFirstname,
      clientIp: clientAddressKey(request.ip),
      language: mailLanguageOf(acceptLanguage),
    });
    return { data };
  }

  /** Completes a sign-up (its body is this platform's own: docs/sign-up.md). */
  @Post('operators')
  @NoStore()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'signUpOperator',
    summary: 'Sign up an operator',
    description:
      'Creates the operator with the code of operation 8 (or an invitation token) and answers an operator token. A wrong, expired or burnt ' +
      'code, or an address that already has an account: 400 1002 naming emailVerificationCode. Attempts per client IP are limited: ' +
      '429 1071 with Retry-After.',
  })
  @ApiErrors('TooManyRequests', 'EmailVerificationUnavailable')
  @ApiCreatedResponse({ type: SignUpResponse })
  async complete(@Body() body: SignUpBody, @Req() request: FastifyRequest): Promise<SignUpResponse> {
    return { data: await this.signUp.execute({ ...body, clientIp: clientAddressKey(request.ip) }) };
  }

  /** A tenant owner invites an address; the invitee signs up with the mailed token. */
  @Post('tenants/:tenantID/operators/invitations')
  @HttpCode(201)
  @Auth('operator')
  @ApiHeader(LANGUAGE_HEADER)
  @ApiOperation({
    operationId: 'inviteOperator',
    summary: 'Invite an operator to a tenant',
    description: 'Owners only (else 403 1004). Mails a single-use invitation token.',
  })
  @ApiErrors('TenantNotFound', 'OperatorEmailDisposable', 'EmailVerificationUnavailable')
  @Idempotent()
  @ApiCreatedResponse({ type: InvitationResponse })
  async invite(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Body() body: InvitationBody,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @IdempotencyClaim() idempotency: IdempotencyKeyClaim,
  ): Promise<InvitationResponse> {
    const data = await this.invitations.execute({
      principal,
      tenantID: params.tenantID,
      operatorEmail: body.operatorEmail,
      language: mailLanguageOf(acceptLanguage),
      idempotency,
    });
    return { data };
  }

  /** An operator who already has an account joins the tenant that invited their address. */
  @Post('operators/invitations/acceptance')
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({
    operationId: 'acceptInvitation',
    summary: 'Accept a tenant invitation with an existing account',
    description:
      'The signed-in operator joins the inviting tenant as a member; the invitation must be for their address, unused and unexpired, ' +
      'else 400 1002 naming invitationToken. New addresses use POST /v1/operators with invitationToken instead.',
  })
  @ApiOkResponse({ type: AcceptedInvitationResponse })
  async accept(@CurrentPrincipal() principal: OperatorPrincipal, @Body() body: AcceptInvitationBody): Promise<AcceptedInvitationResponse> {
    return { data: await this.acceptance.execute({ operatorID: principal.operatorID, invitationToken: body.invitationToken }) };
  }
}
