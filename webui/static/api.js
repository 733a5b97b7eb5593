// The server's HTTP API, as the browser session speaks it: /json routes
// with the session cookie and the CSRF token on unsafe methods.

export class ApiError extends Error {
  constructor(status, body, retryAfter) {
    const msg = (body && typeof body.msg === "string" && body.msg) || `The server answered ${status}.`;
    super(msg);
    this.status = status;
    this.code = (body && body.code) || "";
    this.body = body;
    const ra = Number(retryAfter ?? (body && body["retry-after"]));
    this.retryAfter = Number.isFinite(ra) && ra > 0 ? ra : 0;
  }
}

// csrfToken is the session's token, from its readable cookie.
export function csrfToken() {
  for (const c of document.cookie.split(";")) {
    const [k, v] = c.trim().split("=");
    if (k === "csrftoken") return decodeURIComponent(v || "");
  }
  return "";
}

// encode writes parameters as Zulip takes them: strings as they are,
// everything else as JSON.
function encode(params) {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v === undefined) continue;
    out.set(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return out;
}

// call makes one request and answers its JSON body, or throws an ApiError
// (a network failure is an ApiError with status 0).
export async function call(method, path, params, opts = {}) {
  const prefix = opts.prefix ?? "/json";
  let url = prefix + path;
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin", signal: opts.signal };
  const body = encode(params);
  if (method === "GET" || method === "HEAD") {
    const q = body.toString();
    if (q) url += "?" + q;
  } else {
    init.body = body;
    const token = csrfToken();
    if (token) init.headers["X-CSRFToken"] = token;
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (err) {
    if (err && err.name === "AbortError") throw err;
    throw new ApiError(0, { msg: "The server cannot be reached." });
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok || !data || (data.result && data.result !== "success")) {
    throw new ApiError(res.status, data, res.headers.get("Retry-After"));
  }
  return data;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
