// Access tokens (docs/service.md §4.1 and §5): HS256 JWTs signed with a random per-process secret,
// carrying iat and exp on the emulator's clock, so moving the clock expires them. Error
// messages name the cause but never contain the token.
import { randomBytes } from "node:crypto";
import { SignJWT, errors, jwtVerify } from "jose";
import type { OffsetClock } from "./clock";
import { ServiceError } from "./service-error";

export class TokenIssuer {
  private readonly secret = new Uint8Array(randomBytes(32));

  constructor(
    private readonly username: string,
    private readonly password: string,
    private readonly ttlSeconds: number,
    private readonly clock: OffsetClock,
  ) {}

  async issue(username: string, password: string): Promise<string> {
    if (username !== this.username || password !== this.password) {
      throw new ServiceError(401, "Invalid credentials: unknown username or wrong password");
    }
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(username)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .sign(this.secret);
  }

  /** Checks an Authorization header value; throws a 401 ServiceError naming what is wrong. */
  async verify(header: string | undefined): Promise<void> {
    if (header === undefined || header.trim().length === 0) {
      throw new ServiceError(401, "Missing Authorization header: expected 'Bearer <access token>'");
    }
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    const token = match?.[1];
    if (token === undefined) {
      throw new ServiceError(401, "Malformed Authorization header: expected 'Bearer <access token>'");
    }
    try {
      await jwtVerify(token, this.secret, {
        algorithms: ["HS256"],
        subject: this.username,
        currentDate: this.clock.now(),
      });
    } catch (error) {
      if (error instanceof errors.JWTExpired) {
        throw new ServiceError(
          401,
          "Access token expired: request a new one from the Access Token operation",
        );
      }
      throw new ServiceError(401, "Invalid access token: signature or claims not accepted");
    }
  }
}
