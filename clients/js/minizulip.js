// Drive a minizulip fake Zulip server from a JavaScript test suite
// (node:test, Jest, Vitest…). An ES module with no dependencies: Node 18 or
// newer (global fetch).
//
//   import { Minizulip } from './minizulip.js';
//   const server = await Minizulip.start();          // $MINIZULIP_BIN, else `minizulip` on PATH
//   const key = await server.apiKey('iago@zulip.com');
//   // … point the client under test at server.url …
//   await server.advance(601);                       // ten minutes and a second later
//   await server.waitForRequest({ method: 'POST', path: '/api/v1/messages' });
//   await server.close();
//
// Minizulip.attach(url) drives a server already running. Every method
// returns a promise, rejected with a MinizulipError when the server
// refuses (its status, Zulip's error code and message) or cannot be
// reached.

import { spawn } from 'node:child_process';

/** How long start() and attach() wait for the server, in milliseconds. */
export const START_TIMEOUT_MS = 30_000;

/** A refused or failed request: status (0: not reached), code, msg, body. */
export class MinizulipError extends Error {
  constructor(status, code, msg, body) {
    super(status ? `${status} ${code}: ${msg}` : msg);
    this.name = 'MinizulipError';
    this.status = status;
    this.code = code;
    this.msg = msg;
    this.body = body;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function formValue(v) {
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function base64(text) {
  if (typeof Buffer !== 'undefined') return Buffer.from(text).toString('base64');
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

function defined(params) {
  const out = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v !== undefined && v !== null) out[k] = formValue(v);
  }
  return out;
}

/**
 * One realm of a minizulip server, at its URL: the Zulip API below
 * `${url}/api/v1`, the control API below `${url}/minizulip/`.
 */
export class Minizulip {
  constructor(url, { timeoutMs = 10_000 } = {}) {
    this.url = url.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
    this.process = null;
    this.outputText = '';
  }

  /** Drive a server already running at url, once it answers. */
  static async attach(url, { timeoutMs = 10_000, waitMs = START_TIMEOUT_MS } = {}) {
    const server = new this(url, { timeoutMs });
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        await server.serverSettings();
        return server;
      } catch (err) {
        if (err.status || Date.now() >= deadline) throw err;
      }
      await sleep(50);
    }
  }

  /**
   * Start a server on a free loopback port (-addr 127.0.0.1:0 -banner json)
   * and resolve once it answers. binary: by default $MINIZULIP_BIN, else
   * `minizulip` on PATH; args: more flags (['-seed', 'empty']). The
   * process does not keep Node running, and is killed when Node exits.
   */
  static async start({ binary, args = [], timeoutMs = 10_000, waitMs = START_TIMEOUT_MS } = {}) {
    binary = binary || process.env.MINIZULIP_BIN || 'minizulip';
    const server = new this('http://unstarted', { timeoutMs });
    const child = spawn(binary, ['-addr', '127.0.0.1:0', '-banner', 'json', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.process = child;
    const kill = () => child.kill('SIGKILL');
    process.once('exit', kill);
    child.once('exit', () => process.removeListener('exit', kill));
    const ready = new Promise((resolve, reject) => {
      let firstLine = true;
      let pending = '';
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (chunk) => {
        server.outputText += chunk;
        if (!firstLine) return;
        pending += chunk;
        const nl = pending.indexOf('\n');
        if (nl < 0) return;
        firstLine = false;
        try {
          resolve(JSON.parse(pending.slice(0, nl)).url);
        } catch {
          reject(new MinizulipError(0, 'NOT_STARTED', `minizulip's first line is not JSON: ${pending.slice(0, nl)}`));
        }
      });
      child.stderr.on('data', (chunk) => {
        server.outputText += chunk;
      });
      child.once('error', (err) => reject(new MinizulipError(0, 'NO_BINARY', `cannot run ${binary}: ${err.message}`)));
      child.once('exit', (code) => {
        // Let the last output arrive before saying why.
        setImmediate(() =>
          reject(new MinizulipError(0, 'NOT_STARTED', `minizulip exited with status ${code}: ${server.outputText.trim()}`)),
        );
      });
    });
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new MinizulipError(0, 'NOT_STARTED', `minizulip was not ready within ${waitMs} ms: ${server.outputText.trim()}`)),
        waitMs,
      );
    });
    try {
      server.url = (await Promise.race([ready, timeout])).replace(/\/+$/, '');
    } catch (err) {
      await server.close();
      throw err;
    } finally {
      clearTimeout(timer);
    }
    child.unref();
    child.stdout.unref?.();
    child.stderr.unref?.();
    return server;
  }

  /** What a started server has printed (stdout and stderr). */
  output() {
    return this.outputText;
  }

  /** Stop a started server (SIGTERM, SIGKILL after 10 s); harmless twice. */
  async close() {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  /**
   * One request below the server's URL; resolves to the decoded JSON.
   * params go in the query string for GET and DELETE, as a form otherwise;
   * `body` (an object or JSON text) is sent as application/json instead.
   * `auth` ([email, apiKey]) is sent as HTTP Basic: a Zulip API request
   * as that user.
   */
  async request(method, path, params, { body, auth, timeoutMs } = {}) {
    let url = this.url + path;
    const headers = { Accept: 'application/json' };
    if (auth) headers.Authorization = `Basic ${base64(`${auth[0]}:${auth[1]}`)}`;
    let payload;
    const query = new URLSearchParams(defined(params)).toString();
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
      if (query) url += `?${query}`;
    } else if (method === 'GET' || method === 'DELETE' || method === 'HEAD') {
      if (query) url += `?${query}`;
    } else {
      payload = query;
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    let resp;
    try {
      resp = await fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(timeoutMs ?? this.timeoutMs) });
    } catch (err) {
      throw new MinizulipError(0, 'UNREACHABLE', `${method} ${url}: ${err.cause?.message ?? err.message}`);
    }
    const text = await resp.text();
    let doc;
    try {
      doc = text ? JSON.parse(text) : null;
    } catch {
      doc = undefined;
    }
    if (!resp.ok) {
      if (doc && typeof doc === 'object') throw new MinizulipError(resp.status, doc.code ?? '', doc.msg ?? '', doc);
      throw new MinizulipError(resp.status, '', text);
    }
    return doc;
  }

  /** A request of the control API: name is below /minizulip/. */
  control(method, name, params, options) {
    return this.request(method, `/minizulip/${name}`, params, options);
  }

  // The Zulip API, for setting up.

  /** GET /api/v1/server_settings. */
  serverSettings() {
    return this.request('GET', '/api/v1/server_settings');
  }

  /** A user's API key, from the dev login (dev_fetch_api_key). */
  async apiKey(email) {
    return (await this.request('POST', '/api/v1/dev_fetch_api_key', { username: email })).api_key;
  }

  /** Every control endpoint (GET /minizulip/). */
  async endpoints() {
    return (await this.control('GET', '')).endpoints;
  }

  // Reset and snapshots.

  /** Back to the realm as it was created; every event queue goes. */
  async reset() {
    await this.control('POST', 'reset');
  }

  /** Keep the realm's whole state; resolves to the snapshot's ID. */
  async snapshot() {
    return (await this.control('POST', 'snapshots')).snapshot_id;
  }

  /** The kept snapshots: [{snapshot_id, created}]. */
  async snapshots() {
    return (await this.control('GET', 'snapshots')).snapshots;
  }

  /** Back to a snapshot (as often as wanted); every event queue goes. */
  async restore(snapshotId) {
    await this.control('POST', `snapshots/${Number(snapshotId)}/restore`);
  }

  async deleteSnapshot(snapshotId) {
    await this.control('DELETE', `snapshots/${Number(snapshotId)}`);
  }

  // The clock.

  /** The realm clock's time, Unix seconds with fractions. */
  async now() {
    return (await this.control('GET', 'clock')).now;
  }

  /** Move the clock ahead by seconds; resolves to the new time. */
  async advance(seconds) {
    return (await this.control('POST', 'clock', { advance: seconds })).now;
  }

  /** Set the clock (never backwards) to Unix seconds. */
  async setClock(unixSeconds) {
    return (await this.control('POST', 'clock', { now: unixSeconds })).now;
  }

  // Faults.

  /**
   * Make matching requests fail: {path, method, user, count, status, code,
   * msg, retry_after, delay_ms, drop}. Resolves to the fault's ID.
   */
  async addFault({ drop, ...fault }) {
    return (await this.control('POST', 'faults', { ...fault, drop: drop ? true : undefined })).fault_id;
  }

  /** The active faults, with hits_left. */
  async faults() {
    return (await this.control('GET', 'faults')).faults;
  }

  async deleteFault(faultId) {
    await this.control('DELETE', `faults/${Number(faultId)}`);
  }

  async clearFaults() {
    await this.control('DELETE', 'faults');
  }

  // Event queues.

  /** Live event queues, of one user with {user: email}. */
  async queues({ user } = {}) {
    return (await this.control('GET', 'queues', { user })).queues;
  }

  /** Expire a queue as idle collection does. */
  async expireQueue(queueId) {
    await this.control('POST', `queues/${encodeURIComponent(queueId)}/expire`);
  }

  // The request journal.

  /** Recent requests of the Zulip API, filtered by {method, path, user, since_id}. */
  async requests(filters = {}) {
    return (await this.control('GET', 'requests', filters)).requests;
  }

  async clearRequests() {
    await this.control('DELETE', 'requests');
  }

  /**
   * The first request matching the filters ({method, path, user,
   * since_id}), waiting up to timeout seconds (default 10); rejects with
   * status 408 if none comes.
   */
  async waitForRequest({ timeout = 10, ...filters } = {}) {
    const doc = await this.control('GET', 'requests/wait', { ...filters, timeout }, {
      timeoutMs: timeout * 1000 + this.timeoutMs,
    });
    return doc.request;
  }

  /** Requests the server does not support (endpoints, parameters). */
  async unsupported() {
    return (await this.control('GET', 'unsupported')).unsupported;
  }

  // Fixtures.

  /** The realm as a fixture document (an object). */
  dump() {
    return this.control('GET', 'dump');
  }

  /** Replace the realm by a fixture document (an object or JSON text). */
  async load(document) {
    await this.control('POST', 'fixture', undefined, { body: document });
  }

  // Realms.

  /**
   * A new realm in the same process, on a loopback port of its own, fully
   * isolated (clock, faults, queues, journal), as the server's flags of
   * the same names make one: {seed: 'dev' | 'empty', messages (none by
   * default), fixture (a document, object or JSON text, instead of a
   * seed), feature_level, zulip_version}. Resolves to a Realm; close() it
   * when done.
   */
  async createRealm(options = {}) {
    const body = {};
    for (const [k, v] of Object.entries(options)) {
      if (v === undefined || v === null) continue;
      body[k] = k === 'fixture' && typeof v !== 'string' ? JSON.stringify(v) : v;
    }
    const doc = await this.control('POST', 'realms', undefined, { body });
    return new Realm(doc.url, doc.realm_id, this, { timeoutMs: this.timeoutMs });
  }

  /** The realms created over HTTP: [{realm_id, url, created}]. */
  async realms() {
    return (await this.control('GET', 'realms')).realms;
  }

  async deleteRealm(realmId) {
    await this.control('DELETE', `realms/${Number(realmId)}`);
  }
}

/** A realm made by createRealm: the same surface at its own URL; close() deletes it. */
export class Realm extends Minizulip {
  constructor(url, realmId, parent, options) {
    super(url, options);
    this.realmId = realmId;
    this.parent = parent;
  }

  async close() {
    const parent = this.parent;
    if (!parent) return;
    this.parent = null;
    try {
      await parent.deleteRealm(this.realmId);
    } catch (err) {
      if (err.status !== 400 && err.status !== 404) throw err;
    }
  }
}
