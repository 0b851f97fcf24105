/** DI tokens for the undecorated domain use cases the composition root provides. */
export const CREATE_PLANT = Symbol('CreatePlant');
export const AUTHENTICATE_TOKEN = Symbol('AuthenticateToken');
export const HTTP_OPTIONS = Symbol('HttpOptions');

export interface HttpOptions {
  /** Largest accepted request body, in bytes (DESIGN §2: 64 KiB by default). */
  readonly bodyLimitBytes: number;
}
