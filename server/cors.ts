/**
 * Cross-origin requests are allowed (CONTRACT §7): pages on any origin and programs alike call
 * the server. Credentials are tokens in headers, never cookies, so `*` is enough.
 */

/**
 * The headers every answer carries. `Cross-Origin-Resource-Policy` lets a cross-origin isolated
 * page (the demo's, with `Cross-Origin-Embedder-Policy: require-corp`) show the server's files,
 * an attachment in an `<img>`, which a page loads without CORS.
 */
const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/** The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`). */
export function preflightResponse(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': request.headers.get('Access-Control-Request-Headers') ?? '*',
      'Access-Control-Max-Age': '86400',
    },
  });
}

/** Whether `request` is a CORS preflight. */
export function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('Access-Control-Request-Method');
}

/** `response` with the CORS headers (a WebSocket upgrade is passed on as it is). */
export function withCors(response: Response): Response {
  if (response.status === 101) return response;
  const answer = new Response(response.body, response);
  for (const [name, value] of Object.entries(CORS_HEADERS)) answer.headers.set(name, value);
  return answer;
}
