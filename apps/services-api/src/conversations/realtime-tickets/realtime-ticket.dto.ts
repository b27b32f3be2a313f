import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'RealtimeTicket' })
export class RealtimeTicketDto {
  @ApiProperty({ description: 'Opens one socket on the real-time gateway: `/v1/realtime?ticket=<ticket>`. Single use.', example: 'q3Yb0uQ2m6b8s1o0mJx4Qm9W1e2r3t4y5u6i7o8p9a0' })
  ticket!: string;

  @ApiProperty({ format: 'date-time', description: 'After this the ticket opens nothing (at most 30 seconds after it was issued).' })
  expiresAt!: string;
}

export class RealtimeTicketResponse {
  @ApiProperty({ type: RealtimeTicketDto })
  data!: RealtimeTicketDto;
}
