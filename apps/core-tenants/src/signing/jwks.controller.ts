import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiNoDependency } from '@platform/http-common';
import { SIGNING_KEY } from './operator-token.signer';
import { SigningKey } from './signing-key';

@ApiTags('Operators')
@Controller('.well-known')
export class JwksController {
  constructor(@Inject(SIGNING_KEY) private readonly key: SigningKey) {}

  @Get('jwks.json')
  @Header('cache-control', 'public, max-age=300')
  @ApiOperation({ operationId: 'readTokenKeys', summary: 'Public keys that verify operator tokens (RFC 7517)' })
  @ApiNoDependency()
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['keys'],
      properties: { keys: { type: 'array', items: { type: 'object', description: 'A public JWK', additionalProperties: { type: 'string' } } } },
      example: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: '...', kid: '...', alg: 'EdDSA', use: 'sig' }] },
    },
  })
  jwks(): { keys: object[] } {
    return { keys: [this.key.publicJwk] };
  }
}
