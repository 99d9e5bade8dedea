// The truth table of the month: the states the service can be in, what the engine says
// (the service condition its Status tab reads) and which state a cell's message names.
// A message names a state by the words PCD uses for it (docs/engine.md, the cells'
// messages); a message that names none of them is "other".
import type { Engine } from "../../../src/core/engine-api";
import { serviceCondition, type ServiceConditionKind } from "../../../src/core/service-condition";

export type ServiceCondition =
  /** Answering normally. */
  | "up"
  /** The 15th or 25th, 06:00-22:00 US Central. */
  | "maintenance"
  /** Release day from 06:00 US Central until the release is published. */
  | "release"
  /** Every call answered with a 5xx, no window announced: an outage of unknown cause. */
  | "outage"
  /** No answer at all (the network is down). */
  | "unreachable"
  /** The session ended (the token expired and could not be renewed). */
  | "signed-out";

/** "data": the cell's own data has no value there, whatever the service's state. */
export type MessageClass = ServiceCondition | "data" | "other";

/** First match wins: a not-signed-in message may quote the last sign-in failure's cause. */
const MESSAGE_CLASSES: ReadonlyArray<readonly [MessageClass, RegExp]> = [
  ["data", /^No value for /],
  ["signed-out", /not signed in|sign in again/i],
  ["release", /monthly (data )?release|release day/i],
  ["maintenance", /maintenance/i],
  ["unreachable", /could not be reached|can't reach|cannot reach|network/i],
  ["outage", /temporarily unavailable|HTTP 5\d\d|server error|outage/i],
];

export function classOfMessage(message: string): MessageClass {
  return MESSAGE_CLASSES.find(([, pattern]) => pattern.test(message))?.[0] ?? "other";
}

/** The engine's condition kinds, in the truth table's words. */
const CONDITION_STATES: Readonly<Record<ServiceConditionKind, ServiceCondition>> = {
  up: "up",
  maintenance: "maintenance",
  release: "release",
  failing: "outage",
  unreachable: "unreachable",
  signed_out: "signed-out",
};

/**
 * What the engine says the service is in: the one condition the Status tab and the pane's
 * notices read (src/core/service-condition.ts), from its service state and its session.
 */
export function engineSays(engine: Engine): ServiceCondition {
  return CONDITION_STATES[serviceCondition(engine.serviceState(), engine.authStatus().signedIn).kind];
}
