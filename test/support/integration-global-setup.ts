// The integration lane's global setup: the PGlite database the run's gateway tests copy
// (test/gateway/support/new-pglite-directory.ts), kept from one run to the next.
import { pgliteTemplate, PGLITE_TEMPLATE_VARIABLE } from "../gateway/support/new-pglite-directory";

export default async function prepareIntegrationTests(): Promise<void> {
  process.env[PGLITE_TEMPLATE_VARIABLE] = await pgliteTemplate();
}
