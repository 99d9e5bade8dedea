// A failure the emulator answers with: status, a message naming the cause, and for 429
// and 503 the seconds after which a retry makes sense.

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}
