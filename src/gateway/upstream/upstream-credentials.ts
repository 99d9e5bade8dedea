// The Developer account the gateway signs in with. It comes from the environment
// (PCD_UPSTREAM_USERNAME / PCD_UPSTREAM_PASSWORD) or a file, never from a flag (flags show in
// process lists), and leaves the gateway only in the body of the upstream's token call.
import { readFileSync } from "node:fs";

export interface UpstreamCredentials {
  username: string;
  password: string;
}

export class UpstreamCredentialsError extends Error {}

/** A file of two lines, username then password (or KEY=value lines with the variable names). */
export function readCredentialsFile(file: string): UpstreamCredentials {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UpstreamCredentialsError(
      `--upstream-credentials: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const named = Object.fromEntries(
    lines.flatMap((line) => {
      const match = /^\s*(PCD_UPSTREAM_USERNAME|PCD_UPSTREAM_PASSWORD)\s*=\s*(.*)$/.exec(line);
      return match ? [[match[1], match[2]]] : [];
    }),
  ) as Record<string, string>;
  const username = named.PCD_UPSTREAM_USERNAME ?? lines[0]?.trim();
  const password = named.PCD_UPSTREAM_PASSWORD ?? lines[1];
  if (!username || !password) {
    throw new UpstreamCredentialsError(
      `--upstream-credentials: ${file} must hold the username on its first line and the password on its second`,
    );
  }
  return { username, password };
}

export function credentialsFromEnvironment(env: NodeJS.ProcessEnv): UpstreamCredentials | null {
  const username = env.PCD_UPSTREAM_USERNAME;
  const password = env.PCD_UPSTREAM_PASSWORD;
  if (!username || !password) return null;
  return { username, password };
}

/**
 * Replaces the account's username and password wherever an upstream text repeats them: the
 * text of the service's refusals, where the service could echo the account back (and a header
 * that changes here is not kept). Never the body of a 2xx answer: that is the service's data,
 * and a short password ("2024") would be replaced inside its dates and values (Upstream.answer).
 */
export function withoutCredentials(text: string, credentials: UpstreamCredentials): string {
  let result = text;
  for (const secret of [credentials.password, credentials.username]) {
    if (secret.length > 0) result = result.split(secret).join("[the gateway's account]");
  }
  return result;
}
