import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsStringOfLength } from '@platform/http-common';

export class SignInBody {
  @ApiProperty({ example: 'ana@acme-support.com.br' })
  @IsStringOfLength(3, 320)
  operatorEmail!: string;

  @ApiProperty({ example: 'correct horse battery staple', format: 'password' })
  @IsStringOfLength(1, 1024)
  password!: string;
}

@ApiSchema({ name: 'SignInResult' })
export class SignInResultDto {
  @ApiProperty({ description: 'Operator JWT for `Authorization: Bearer <token>`' })
  token!: string;

  @ApiProperty({ example: 3600 })
  expiresInSeconds!: number;
}

export class SignInResponse {
  @ApiProperty({ type: SignInResultDto })
  data!: SignInResultDto;
}
