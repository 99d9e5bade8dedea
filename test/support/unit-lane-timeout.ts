// The unit lane's test timeout (jest.config.js): a unit test runs in-process in well under a
// second; 10 s leaves room for a loaded machine while a hung wait still fails fast.
jest.setTimeout(10_000);
