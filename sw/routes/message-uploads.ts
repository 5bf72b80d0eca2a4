/**
 * Reading a message create or edit request: JSON, or `multipart/form-data` whose
 * `payload_json` part holds the JSON fields and whose `files[n]` parts hold the files (the
 * platform's "Uploading Files"). Sizes are checked per attachment by the domain code.
 */
import type * as v from 'valibot';
import type { UploadedFile } from '../../src/platform/messages/attachments';
import { ApiError } from '../../src/platform/core/errors';
import { parseJsonBody, readJson, validate, type AppContext } from '../http';

/** A validated body with the files that came with it. */
export interface MessageRequest<T> {
  body: T;
  files: UploadedFile[];
}

/** The `n` of a `files[n]` part, or the part's position for a file part named otherwise. */
function fileIndex(name: string, position: number): string {
  return /^files\[(\d+)\]$/.exec(name)?.[1] ?? String(position);
}

/**
 * Reads the request as JSON or as multipart form data.
 * @example const { body, files } = await readMessageRequest(c, MessageCreateSchema);
 */
export async function readMessageRequest<S extends v.GenericSchema>(
  c: AppContext,
  schema: S,
): Promise<MessageRequest<v.InferOutput<S>>> {
  const type = c.req.header('Content-Type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) return { body: await readJson(c, schema), files: [] };
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw ApiError.invalidForm({ _root: 'The multipart body could not be read.' });
  }
  const payload = form.get('payload_json');
  const json = typeof payload === 'string' ? parseJsonBody(payload) : {};
  const files: UploadedFile[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') continue;
    // A plain Blob: what IndexedDB stores in every engine (a File's name lives in the metadata).
    files.push({
      index: fileIndex(name, files.length),
      filename: value.name || 'unknown',
      contentType: value.type,
      data: new Blob([value], { type: value.type }),
    });
  }
  return { body: validate(schema, json), files };
}
