// The integration lane's global setup: one new PGlite database for the run's gateway tests to
// copy (test/gateway/support/new-pglite-directory.ts); integration-global-teardown.ts removes it.
import { createPGliteTemplate, PGLITE_TEMPLATE_VARIABLE } from "../gateway/support/new-pglite-directory";

export default async function prepareIntegrationTests(): Promise<void> {
  process.env[PGLITE_TEMPLATE_VARIABLE] = await createPGliteTemplate();
}
