/**
 * Domain errors carry their HTTP status and the message a user may see. The error handler turns
 * them into JSON; anything else becomes a masked 500.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new HttpError(400, message, details);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'Access denied') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const gone = (message: string) => new HttpError(410, message);
export const tooManyRequests = (message: string, details?: Record<string, unknown>) =>
  new HttpError(429, message, details);
export const serviceUnavailable = (message = 'Service temporarily unavailable, please try again shortly') =>
  new HttpError(503, message);
