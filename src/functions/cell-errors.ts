// Turns any failure into what a cell shows. Only #VALUE! and #N/A carry a message in
// Excel, so: the user's arguments are wrong -> #VALUE!, anything else -> #N/A, and the
// message always names the cause (never a bare error, never a token or password).
import { isPcdError, type PcdError } from "../core/errors";
import { lastSentence, truncate } from "../core/truncate";

export type CellErrorType = "#VALUE!" | "#N/A" | "#DIV/0!";

export interface CellError {
  type: CellErrorType;
  message: string;
}

/** Excel shows at most this many characters of a custom error message. */
export const MAX_ERROR_MESSAGE_LENGTH = 255;

export function inputError(message: string): CellError {
  return { type: "#VALUE!", message: fitMessage(message) };
}

export function toCellError(error: unknown): CellError {
  if (error instanceof DivisionByZeroError) return { type: "#DIV/0!", message: fitMessage(error.message) };
  if (isPcdError(error)) {
    const type: CellErrorType = error.kind === "input" ? "#VALUE!" : "#N/A";
    const message = describePcdError(error);
    // A team gateway's refusal for the member's budget ends with what to do: kept whole.
    const keep = error.details.memberBudget === true ? lastSentence(message, MAX_ERROR_MESSAGE_LENGTH) : "";
    return { type, message: truncate(message, MAX_ERROR_MESSAGE_LENGTH, keep) };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { type: "#N/A", message: fitMessage(`PCD internal error: ${text || "unknown failure"}`) };
}

/** The engine writes user-facing messages; this fills in what a terse one leaves out. */
function describePcdError(error: PcdError): string {
  const message = error.message.trim();
  const { allowed, dataset } = error.details;
  if (error.kind === "input" && allowed && allowed.length > 0 && !allowed.some((a) => message.includes(a))) {
    return `${withStop(message)} Allowed: ${allowed.join(", ")}.`;
  }
  // A gateway's member-budget refusal names its dataset; one cut in its middle may not show it.
  if (
    error.kind === "quota" &&
    dataset &&
    !message.includes(dataset) &&
    error.details.memberBudget !== true
  ) {
    return `${withStop(message)} Quota reached for ${dataset}.`;
  }
  if (message) return message;
  return FALLBACK_MESSAGES[error.kind];
}

const FALLBACK_MESSAGES: Record<PcdError["kind"], string> = {
  input: "An argument is not valid.",
  not_signed_in: "Not signed in to PCD: sign in from the PCD task pane.",
  auth: "PCD refused the sign-in: sign in again from the PCD task pane.",
  quota: "The PCD data request quota is reached.",
  rate: "PCD is rate limiting requests; the cell retries on the next refresh.",
  unavailable: "The PCD service is unavailable (maintenance or release day).",
  plan: "Your PCD plan does not include this operation.",
  bad_request: "PCD rejected the request.",
  not_found: "PCD does not know this series.",
  server: "The PCD service failed to answer.",
  network: "PCD could not be reached (network).",
  timeout: "PCD did not answer in time.",
  protocol: "PCD sent an answer this add-in cannot read.",
  storage: "The local PCD cache failed.",
};

function withStop(message: string): string {
  return /[.!?:]$/.test(message) ? message : `${message}.`;
}

/** Cuts a message to what Excel shows of it, marking the cut. */
export function fitMessage(message: string): string {
  return truncate(message, MAX_ERROR_MESSAGE_LENGTH);
}

/**
 * The cell's own retry time added to its message ("Will try again at 14:05 UTC."), kept
 * whole within Excel's 255 characters: the cause is shortened instead. UTC, like the
 * service's notices, so the time reads the same on every machine.
 */
export function withRetryNote(error: CellError, retryAt: number | null): CellError {
  if (retryAt === null) return error;
  const note = ` Will try again at ${new Date(retryAt).toISOString().slice(11, 16)} UTC.`;
  const room = MAX_ERROR_MESSAGE_LENGTH - note.length;
  const whole = withStop(error.message);
  return { type: error.type, message: `${shortenKeepingTail(whole, room)}${note}` };
}

/** What a message says is missing ("…: the latest months of X could not be fetched.") stays whole. */
const MISSING_TAIL = /: [^:]{1,90} could not be fetched\.$/;

/** Shortens a message to `room` characters, cutting the cause rather than what is missing. */
function shortenKeepingTail(message: string, room: number): string {
  const tail = MISSING_TAIL.exec(message)?.[0];
  // A tail that would leave under 20 characters of cause is cut like the rest.
  return truncate(message, room, tail !== undefined && tail.length < room - 20 ? tail : "");
}

/** V(from) = 0 in a ratio: Excel's #DIV/0!, which a user reads without a message. */
export class DivisionByZeroError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DivisionByZeroError";
  }
}
