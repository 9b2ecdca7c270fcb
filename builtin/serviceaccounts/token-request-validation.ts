import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';

/** The shortest and longest validity a TokenRequest may ask for (pkg/apis/authentication/validation). */
export const minTokenSeconds = 10 * 60;
export const maxTokenSeconds = 2 ** 32;

/** kube's ValidateTokenRequest: the requested validity between 10 minutes and 2^32 seconds. */
export function tokenRequestCauses(expirationSeconds: number): StatusCause[] {
  const field = 'spec.expirationSeconds';
  if (expirationSeconds < minTokenSeconds) return [fieldErrors.invalid(field, expirationSeconds, 'may not specify a duration less than 10 minutes')];
  if (expirationSeconds > maxTokenSeconds) return [fieldErrors.invalid(field, expirationSeconds, 'may not specify a duration larger than 2^32 seconds')];
  return [];
}
