import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

/** Property decorator for a TCP port variable. */
export function IsPort(): PropertyDecorator {
  const message = 'must be an integer 1-65535';
  return (target, key) => {
    Type(() => Number)(target, key);
    IsInt({ message })(target, key);
    Min(1, { message })(target, key);
    Max(65535, { message })(target, key);
  };
}

/** Property decorator for a positive integer variable with bounds. */
export function IsIntegerBetween(min: number, max: number): PropertyDecorator {
  const message = `must be an integer ${min}-${max}`;
  return (target, key) => {
    Type(() => Number)(target, key);
    IsInt({ message })(target, key);
    Min(min, { message })(target, key);
    Max(max, { message })(target, key);
  };
}
