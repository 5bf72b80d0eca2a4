/**
 * What an answer given before the request's body was read must do first: read the rest of the
 * body and drop it. Otherwise the client's connection is left mid-request, the runtime closes it
 * without `Connection: close`, and a keep-alive client's next request on it fails.
 */

/**
 * Reads what is left of `request`'s body and drops it; nothing to do when there is none or it was read.
 * @example await discardUnreadBody(request); return refusal;
 */
export async function discardUnreadBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  await request.body.pipeTo(new WritableStream()).catch(() => undefined);
}
