// Test doubles for the transport: a scripted fetch that records every request, JSON
// responses, unsigned JWTs and a settable clock.
import type { EngineSettings } from "../../../src/core/engine-api";
import type { Clock, FetchLike, LogLevel } from "../../../src/core/environment";
import { DEFAULT_SETTINGS } from "../../../src/core/settings";

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

export type Responder = (request: RecordedRequest, index: number, signal?: AbortSignal) => Promise<Response>;

/** A fetch that answers with `responders[i]` for the i-th request (the last one repeats). */
export function scriptedFetch(...responders: Responder[]): { fetch: FetchLike; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fetch: FetchLike = async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const request: RecordedRequest = {
      url: input,
      method: init?.method ?? "GET",
      headers,
      body: typeof init?.body === "string" ? init.body : null,
    };
    requests.push(request);
    const index = requests.length - 1;
    const responder = responders[Math.min(index, responders.length - 1)];
    if (!responder) throw new Error("scriptedFetch: no responder");
    return responder(request, index, init?.signal ?? undefined);
  };
  return { fetch, requests };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Responder {
  return async () =>
    new Response(typeof body === "string" ? body : JSON.stringify(body), {
      status,
      headers: { "Content-Type": "application/json", ...headers },
    });
}

export function text(body: string, status: number, headers: Record<string, string> = {}): Responder {
  return async () => new Response(body, { status, headers: { "Content-Type": "text/plain", ...headers } });
}

export function reject(error: Error): Responder {
  return async () => {
    throw error;
  };
}

/** Never answers; rejects when the request is aborted (as fetch does). */
export function hang(): Responder {
  return (_request, _index, signal) =>
    new Promise((_resolve, rejectPromise) => {
      signal?.addEventListener("abort", () => rejectPromise(new DOMException("aborted", "AbortError")));
    });
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** An unsigned JWT-shaped token with the given claims (the client never verifies). */
export function makeJwt(claims: Record<string, unknown>): string {
  return `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url(claims)}.c2lnbmF0dXJlLW5vdC1jaGVja2Vk`;
}

export class FakeClock implements Clock {
  constructor(public time: number) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

export function settingsWith(patch: Partial<EngineSettings> = {}): EngineSettings {
  return {
    ...DEFAULT_SETTINGS,
    baseUrl: "https://pcd.example.com",
    authUrl: "https://auth.example.com",
    ...patch,
    productPaths: { ...DEFAULT_SETTINGS.productPaths, ...patch.productPaths },
  };
}

export interface LogLine {
  level: LogLevel;
  message: string;
}

export function recordingLog(): { log: (level: LogLevel, message: string) => void; lines: LogLine[] } {
  const lines: LogLine[] = [];
  return { log: (level, message) => lines.push({ level, message }), lines };
}

/** A quiet weekday in November 2026: no maintenance, not a release day. */
export const QUIET_TIME = Date.parse("2026-11-18T15:00:00Z");
/** Inside the maintenance window of 2026-11-15 (CST). */
export const MAINTENANCE_TIME = Date.parse("2026-11-15T15:00:00Z");
