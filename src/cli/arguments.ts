import { InvalidArgumentError } from 'commander';
import { parseUsd } from '../core/spend-limit';

/** Argument parsers for commander: a bad value is a usage error (exit 42) with this message. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}

/** An amount of US dollars (`5`, `0.25`, `$2`): above zero. */
export function usdAmount(value: string): number {
  const parsed = parseUsd(value);
  if (!parsed.ok) throw new InvalidArgumentError(`expected an amount of US dollars: ${parsed.reason}`);
  return parsed.usd;
}
