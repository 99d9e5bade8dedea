// The browser lane's test environment (jest.config.js): every lane's
// (test/support/lane-environment.js), with playwright-core loaded once per Jest worker and
// handed to each test file (./browser.ts takes it from there). Jest loads a test file's modules
// afresh for every file, and Playwright's bundle costs about 0.8 CPU-seconds to load each time;
// loaded here, outside the test file's modules, it also builds the stack traces it takes at every
// call with Node's own formatting instead of Jest's source-mapped one (about 5 of the lane's
// CPU-seconds).
"use strict";
const LaneEnvironment = require("../../support/lane-environment");
const { chromium } = require("playwright-core");

/** The global a test file finds Playwright's Chromium under. */
const SHARED_CHROMIUM = "pcdPlaywrightChromium";

class BrowserLaneEnvironment extends LaneEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global[SHARED_CHROMIUM] = chromium;
  }
}

module.exports = BrowserLaneEnvironment;
