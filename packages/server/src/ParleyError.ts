import { GraphQLError } from 'graphql';
import type { InputProblem, ServerErrorCode } from '@parley/contract';

/** Extra facts a coded error carries to the client in `extensions`. */
export interface ParleyErrorDetails {
  /** Input field the error is about (`extensions.field`), e.g. `email`. */
  field?: string;
  /**
   * INVALID_INPUT: which of `@parley/contract`'s rules it breaks (`extensions.problem`, e.g.
   * `USERNAME_LENGTH`, `URL_INVALID`), for a client to word it in its own language.
   */
  problem?: InputProblem;
  /** INVALID_INPUT: the figure a problem's words need (`TOO_LONG`: the most characters). */
  max?: number;
  /** INVALID_INPUT `ORIGIN_INVALID`: what was given. */
  value?: string;
  /** INVALID_INPUT `ADDRESS_PRIVATE`: the host and the address it is at. */
  host?: string;
  address?: string;
  /** Seconds until a rate-limited action may be tried again (`extensions.retryAfterSeconds`). */
  retryAfterSeconds?: number;
  /** End of a suspension, ISO string (`extensions.until`). */
  until?: string;
  /** HTTP status for errors that end a request before execution (GraphQL-over-HTTP). */
  httpStatus?: number;
  /** CHALLENGE_REQUIRED: the challenge to answer (`extensions.challenge`). */
  challenge?: string;
  /** CHALLENGE_REQUIRED: zero bits the answer's SHA-256 must start with. */
  bits?: number;
  /** CHALLENGE_REQUIRED: milliseconds before an answer is accepted. */
  retryAfterMs?: number;
  /** TWO_FACTOR_CODE_REQUIRED: what `signInSecondFactor` takes with the code. */
  ticket?: string;
  /** SIGN_IN_LINK_REQUIRED: the address an account here has, that the provider gave. */
  email?: string;
  /** SIGN_IN_LINK_REQUIRED: the provider's name (`GitHub`). */
  provider?: string;
  /** SIGN_IN_LINK_REQUIRED: whether the account has a password to prove it with (else the link). */
  hasPassword?: boolean;
}

/**
 * An intentional, coded error: the message is for people, `extensions.code` for programs.
 * Anything thrown that is not a ParleyError is unexpected and is masked as `INTERNAL`.
 */
export class ParleyError extends GraphQLError {
  /** The code, also in `extensions.code`. */
  readonly code: ServerErrorCode;

  constructor(code: ServerErrorCode, message: string, details: ParleyErrorDetails = {}) {
    const { httpStatus, ...rest } = details;
    super(message, {
      extensions: {
        code,
        ...rest,
        ...(httpStatus === undefined ? {} : { http: { status: httpStatus } }),
      },
    });
    this.name = 'ParleyError';
    this.code = code;
  }
}

/** Narrows an unknown thrown value to a {@link ParleyError}. */
export function isParleyError(error: unknown): error is ParleyError {
  return error instanceof ParleyError;
}
