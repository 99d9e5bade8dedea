// Request bodies are validated with valibot; a bad body is a 400 that names the field.
import * as v from "valibot";
import { ServiceError } from "./service-error";

export function parseBody<TSchema extends v.GenericSchema>(
  schema: TSchema,
  body: unknown,
  what: string,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, body);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  throw new ServiceError(
    400,
    `Malformed ${what} body: ${path === null ? "" : `${path}: `}${issue.message}`.trim(),
  );
}
