import { PcdError } from "../../src/core/errors";
import {
  allowanceText,
  describeError,
  formatBytes,
  formatDuration,
  signInErrorMessage,
  tokenLifetimeText,
  nextMaintenanceText,
  nextReleaseText,
  unavailableText,
} from "../../src/taskpane/messages";

const NOW = Date.UTC(2026, 10, 25, 15, 0);
const SERVICE = "https://pcd.example.com";

describe("signInErrorMessage", () => {
  test.each<[string, unknown, RegExp]>([
    ["refused credentials", new PcdError("auth", "401 Unauthorized"), /^Wrong username or password/],
    [
      "refused credentials name the cause once, without the service's repetition",
      new PcdError("auth", "401", { serverMessage: "Invalid credentials" }),
      /^Wrong username or password: the service refused the sign-in\. Check both and sign in again\.$/,
    ],
    [
      "no answer",
      new PcdError(
        "network",
        "The service at … could not be reached for Access Token (connection refused).",
        {
          reason: "connection refused",
        },
      ),
      /^The PCD service at https:\/\/pcd\.example\.com could not be reached \(connection refused\)\. Check/,
    ],
    ["no answer names the address", new PcdError("network", "x"), /https:\/\/pcd\.example\.com/],
    [
      "timeout",
      new PcdError("timeout", "no answer within 130 s"),
      /^The PCD service at https:\/\/pcd\.example\.com did not answer in time\. Check .*Advanced/,
    ],
    [
      "maintenance with an end",
      new PcdError("unavailable", "503", { until: NOW + 7 * 3_600_000 }),
      /in maintenance until .*\(7 h from now\)/,
    ],
    ["maintenance without an end", new PcdError("unavailable", "503"), /in maintenance; try again later/],
    [
      "release day: named as the release, as the Status tab names it",
      new PcdError("unavailable", "503", { until: NOW + 3 * 3_600_000, downtime: "release" }),
      /^Release day: the service is closed until the new data is published \(by 22:00 US Central Time at the latest: .*, 3 h from now\)/,
    ],
    [
      "a maintenance the service announced",
      new PcdError("unavailable", "503", { until: NOW + 2 * 3_600_000, downtime: "announced" }),
      /^The PCD service said it is in maintenance until .*\(2 h from now\)/,
    ],
    [
      "the calendar's maintenance window",
      new PcdError("unavailable", "503", { until: NOW + 2 * 3_600_000, downtime: "maintenance" }),
      /^The PCD service is in maintenance until .*\(2 h from now\)/,
    ],
    [
      "a bad address setting",
      new PcdError("input", "Invalid setting baseUrl: must use https"),
      /^Invalid setting baseUrl/,
    ],
    ["anything else", new PcdError("server", "500 Internal"), /^Sign-in failed: 500 Internal\.$/],
    ["not a PcdError", new TypeError("Failed to fetch"), /^Sign-in failed: Failed to fetch\.$/],
  ])("%s", (_name, error, expected) => {
    expect(signInErrorMessage(error, SERVICE, NOW)).toMatch(expected);
  });
});

test.each<[string, number, string]>([
  ["under a minute", 59_000, "less than a minute"],
  ["minutes", 4 * 60_000 + 5_000, "4 min"],
  ["hours and minutes", 119 * 60_000, "1 h 59 min"],
  ["whole hours", 2 * 3_600_000, "2 h"],
  ["days drop the minutes", 26 * 3_600_000 + 5 * 60_000, "1 d 2 h"],
  ["negative", -5, "less than a minute"],
  ["not a number", Number.NaN, "less than a minute"],
])("formatDuration: %s", (_name, ms, expected) => {
  expect(formatDuration(ms)).toBe(expected);
});

test.each<[number, string]>([
  [0, "0 B"],
  [1023, "1023 B"],
  [1536, "1.5 KB"],
  [5 * 1024 * 1024, "5.0 MB"],
])("formatBytes(%d)", (bytes, expected) => {
  expect(formatBytes(bytes)).toBe(expected);
});

test.each<[string, number, number, string, number]>([
  ["full", 500, 500, "500 of 500 left", 1],
  ["partly used", 480, 500, "480 of 500 left", 0.96],
  ["exhausted", 0, 500, "0 of 500 left", 0],
  ["negative remaining is shown as none", -3, 500, "0 of 500 left", 0],
  ["more remaining than total is capped", 600, 500, "500 of 500 left", 1],
  ["no allowance", 0, 0, "0 of 0 left", 0],
])("allowanceText: %s", (_name, remaining, total, label, fraction) => {
  expect(allowanceText(remaining, total)).toEqual({ label, fraction });
});

test.each<[string, number | null, "maintenance" | "release" | null, RegExp]>([
  [
    "maintenance",
    NOW + 3_600_000,
    "maintenance",
    /in maintenance until .*\(1 h from now\)\. Cached data stays available/,
  ],
  [
    "release day",
    NOW + 3_600_000,
    "release",
    /^Release day: the service is closed until the new data is published \(by 22:00 US Central Time at the latest: .*, 1 h from now\)\./,
  ],
  [
    "unknown end",
    null,
    "release",
    /^Release day: the service is closed until the new data is published \(by 22:00 US Central Time at the latest\)\./,
  ],
])("unavailableText: %s", (_name, until, reason, expected) => {
  expect(unavailableText(until, NOW, reason)).toMatch(expected);
});

test.each<[string, unknown, string]>([
  ["PcdError", new PcdError("quota", "Allowance of Germany is used up."), "Allowance of Germany is used up."],
  ["PcdError without text", new PcdError("storage", " "), "PCD failed (storage)."],
  ["Error: made a sentence", new Error("boom"), "Boom."],
  ["a string", "plain", "Plain."],
  ["an empty Error names its type", new TypeError(""), "TypeError."],
])("describeError: %s", (_name, error, expected) => {
  expect(describeError(error)).toBe(expected);
});

test.each<[string, number | null, string]>([
  ["no token yet", null, "No token yet: one is requested with the next call."],
  ["expired", NOW - 1, "Token expired: it is renewed with the next call."],
  ["fresh two-hour token", NOW + 2 * 3_600_000, "Token valid for 2 h (renewed automatically)."],
  ["almost gone", NOW + 30_000, "Token valid for less than a minute (renewed automatically)."],
])("tokenLifetimeText: %s", (_name, expiresAt, expected) => {
  expect(tokenLifetimeText(expiresAt, NOW)).toBe(expected);
});

test.each([
  [
    "release day: the day it closes, not an hour the data comes",
    nextReleaseText(Date.UTC(2026, 11, 3, 12)),
    "Next release day: Thu, Dec 3 (closed from 06:00 US Central Time until the new data is published, by 22:00 at the latest).",
  ],
  [
    "maintenance: the window's day and hours",
    nextMaintenanceText(Date.UTC(2026, 10, 25, 12)),
    "Next maintenance window: Wed, Nov 25, 06:00 to 22:00 US Central Time.",
  ],
])("Status calendar lines: %s", (_case, text, expected) => {
  expect(text).toBe(expected);
});
