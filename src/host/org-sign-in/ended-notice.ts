// Why the organisation sign-in ended on its own (a silent renewal that only the user can
// make now): the token source, in its lazily loaded chunk, notes it; the sign-in panel
// shows it. Small and without MSAL, so the panel reads it without loading the sign-in code.

let notice: string | null = null;
const listeners = new Set<(notice: string | null) => void>();

export function noteOrgSignInEnded(message: string | null): void {
  notice = message;
  for (const listener of [...listeners]) listener(notice);
}

export function orgSignInEndedNotice(): string | null {
  return notice;
}

export function onOrgSignInEnded(listener: (notice: string | null) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
