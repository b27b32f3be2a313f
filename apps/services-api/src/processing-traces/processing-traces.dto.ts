import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsStringOfLength, TenantParamsWith } from '@platform/http-common';
import { Type } from 'class-transformer';
import { ValidateBy, ValidateNested } from 'class-validator';

/** An array of min-max items; its `allowed` text says so (the built-in array rules only say "array"). */
function IsArrayOfLength(min: number, max: number): PropertyDecorator {
  return ValidateBy(
    { name: 'isArrayOfLength', validator: { validate: (value) => Array.isArray(value) && value.length >= min && value.length <= max } },
    { message: `array of ${min}-${max} {source, traceRef}` },
  );
}

/** docs/processing-traces.md, Operation 10: the traces array of a retrieval holds 1-10 elements. */
export const MAX_RETRIEVAL_TRACES = 10;

export class ProcessingTracesParams extends TenantParamsWith('sessionID') {}

export class TraceReferenceDto {
  @ApiProperty({ description: 'The `source` of a trace listed by operation 9 (the providing plugin\'s URN)', example: 'urn:plugin:intent-classifier' })
  @IsStringOfLength(1, 200)
  source!: string;

  @ApiProperty({ description: 'The provider\'s reference of the trace, as listed by operation 9', example: 'tr_01JD3W1C9YH8' })
  @IsStringOfLength(1, 500)
  traceRef!: string;
}

export class RetrievalBody {
  @ApiProperty({ type: [TraceReferenceDto], minItems: 1, maxItems: MAX_RETRIEVAL_TRACES })
  @IsArrayOfLength(1, MAX_RETRIEVAL_TRACES)
  @ValidateNested({ each: true })
  @Type(() => TraceReferenceDto)
  traces!: TraceReferenceDto[];
}

/** Where a source stands (docs/processing-traces.md, statuses). */
export const SOURCE_STATUSES = ['ready', 'pending', 'not_found', 'expired', 'timeout', 'unreachable', 'error', 'invalid_response'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

export class TraceSourceDto {
  @ApiProperty({ description: 'The providing plugin\'s URN', example: 'urn:plugin:intent-classifier' }) source!: string;
  @ApiProperty({ description: 'The providing plugin\'s name', example: 'Classificador de intenção' }) name!: string;
  @ApiProperty({ enum: SOURCE_STATUSES, example: 'ready' }) status!: SourceStatus;
  @ApiProperty({
    description: 'Discovery: the provider\'s reference of the session\'s traces ("" when it gives none). Retrieval: the trace this entry is about.',
    example: 'tr_01JD3W1C9YH8',
  })
  traceRef!: string;
}

export class TraceRefDto {
  @ApiProperty({ example: 'urn:plugin:intent-classifier' }) source!: string;
  @ApiProperty({ example: 'tr_01JD3W1C9YH8' }) traceRef!: string;
}

export class TracedMessageDto {
  @ApiProperty({ format: 'uuid' }) messageID!: string;
  @ApiProperty({ description: 'Fingerprint of the message content the providers processed (of the earliest trace)', example: 'sha256:9f2c…' })
  messageFingerprint!: string;
  @ApiProperty({ format: 'date-time', description: 'Earliest start among the message\'s traces' }) startedAt!: string;
  @ApiProperty({ description: 'From the earliest start to the latest end among the message\'s traces', example: 840 }) durationMs!: number;
  @ApiProperty({ enum: ['succeeded', 'failed', 'stopped', 'running'], description: 'Combined: running, else failed, else stopped, else succeeded' })
  status!: string;
  @ApiProperty({ description: 'Sum of the steps of every trace', example: 5 }) stepCount!: number;
  @ApiProperty({ type: [TraceRefDto] }) traces!: TraceRefDto[];
}

export class DiscoveryResponse {
  @ApiProperty({ type: [TracedMessageDto] }) messages!: TracedMessageDto[];
  @ApiProperty({ type: [TraceSourceDto] }) sources!: TraceSourceDto[];
  @ApiProperty({ enum: [1] }) version!: 1;
}

export class StepDetailDto {
  @ApiProperty({ example: 'text' }) kind!: string;
  @ApiProperty({ example: 'Intenção' }) label!: string;
  @ApiProperty({ example: 'segunda_via_boleto' }) value!: string;
  @ApiProperty({ description: 'true when the value was cut (at 2,000 characters) by the platform or the provider' }) truncated!: boolean;
}

export class TraceDetailDto extends StepDetailDto {
  @ApiProperty({ example: 'urn:plugin:intent-classifier' }) source!: string;
  @ApiProperty({ example: 'Classificador de intenção' }) sourceName!: string;
}

export class StepMetricDto {
  @ApiProperty({ example: 'confiança' }) label!: string;
  @ApiProperty({ example: '0.97' }) value!: string;
}

export class StepPluginDto {
  @ApiProperty({ description: 'Icon URL ("" when the plugin has none)' }) pluginIcon!: string;
  @ApiProperty({ example: 'Classificador de intenção' }) pluginName!: string;
  @ApiProperty({ example: 'urn:plugin:intent-classifier' }) pluginURN!: string;
}

export class TraceStepDto {
  @ApiProperty({ example: 'st_1' }) stepID!: string;
  @ApiProperty({ example: 'Intenção identificada' }) title!: string;
  @ApiProperty({ example: 'intention' }) category!: string;
  @ApiProperty({ example: 'succeeded' }) status!: string;
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty({ example: 120 }) durationMs!: number;
  @ApiPropertyOptional({ description: 'Present when the provider gave one' }) subtitle?: string;
  @ApiPropertyOptional({ description: 'Present when the provider gave one' }) error?: string;
  @ApiPropertyOptional({ description: 'Present when the provider gave one' }) highlight?: string;
  @ApiProperty({ type: [StepDetailDto] }) details!: StepDetailDto[];
  @ApiProperty({ type: [StepMetricDto] }) metrics!: StepMetricDto[];
  @ApiProperty({ type: StepPluginDto }) plugin!: StepPluginDto;
  @ApiProperty({ example: 'urn:plugin:intent-classifier' }) pluginURN!: string;
  @ApiProperty({ example: 'urn:plugin:intent-classifier' }) source!: string;
  @ApiProperty({ description: 'Icon URL of the source ("" when none)' }) sourceIcon!: string;
  @ApiProperty({ example: 'Classificador de intenção' }) sourceName!: string;
}

export const RETRIEVAL_STATUSES = ['ready', 'pending', 'not_found', 'expired', 'partial', 'error'] as const;
export type RetrievalStatus = (typeof RETRIEVAL_STATUSES)[number];

export class RetrievalResponse {
  @ApiProperty({ type: [TraceDetailDto] }) details!: TraceDetailDto[];
  @ApiProperty({ description: 'From the earliest start to the latest end of the traces read (0 when none)' }) durationMs!: number;
  @ApiProperty({ enum: ['succeeded', 'failed', 'stopped', 'running'] }) processStatus!: string;
  @ApiProperty({ type: [TraceSourceDto], description: 'One entry per requested trace' }) sources!: TraceSourceDto[];
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Earliest start of the traces read; null when none could be read' })
  startedAt!: string | null;
  @ApiProperty({ enum: RETRIEVAL_STATUSES }) status!: RetrievalStatus;
  @ApiProperty() stepCount!: number;
  @ApiProperty({ type: [TraceStepDto], description: 'Sorted by startedAt, then source, traceRef and the provider\'s own order' }) steps!: TraceStepDto[];
  @ApiProperty({ enum: [1] }) version!: 1;
}
