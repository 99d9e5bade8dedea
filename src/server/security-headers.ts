// Headers on every answer of npm run serve. No X-Frame-Options or frame-ancestors: Excel
// on the web shows the task pane in a frame of Microsoft's origin.
export interface SecurityHeaderOptions {
  /** The page's policy (page-policy.ts). */
  contentSecurityPolicy: string;
  /** HSTS only over TLS: over plain HTTP a browser ignores it, and it would pin a dev host. */
  tls: boolean;
}

export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  return {
    "content-security-policy": options.contentSecurityPolicy,
    "x-content-type-options": "nosniff",
    // Nothing the add-in loads needs to know which page asked.
    "referrer-policy": "no-referrer",
    ...(options.tls ? { "strict-transport-security": "max-age=31536000" } : {}),
  };
}
