// The helper against a real minizulip binary, with zulip-js as the client
// under test: node --test test/ (MINIZULIP_BIN names the binary).
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import zulipInit from 'zulip-js';

import { Minizulip, MinizulipError } from '../minizulip.js';

let server;

before(async () => {
  server = await Minizulip.start();
});

after(async () => {
  await server?.close();
});

beforeEach(async () => {
  await server.reset();
  await server.clearFaults();
  await server.clearRequests();
});

/** A zulip-js client of one user, logged in with the dev login. */
async function clientOf(target, email) {
  return zulipInit({ username: email, apiKey: await target.apiKey(email), realm: target.url });
}

async function topicMessages(client, channel, topic) {
  const res = await client.messages.retrieve({
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: topic },
    ],
  });
  assert.equal(res.result, 'success', JSON.stringify(res));
  return res.messages.map((m) => m.content);
}

async function send(client, channel, topic, content) {
  const res = await client.messages.send({ type: 'stream', to: channel, topic, content });
  assert.equal(res.result, 'success', JSON.stringify(res));
  return res.id;
}

describe('starting and attaching', () => {
  test('start resolves once the server answers, close stops it', async () => {
    const s = await Minizulip.start({ args: ['-seed', 'empty'] });
    try {
      assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal((await s.serverSettings()).realm_uri, s.url);
      assert.ok(await s.apiKey('owner@zulip.com'));
    } finally {
      await s.close();
    }
    assert.notEqual(s.process.exitCode ?? s.process.signalCode, null);
    await s.close(); // twice is harmless
  });

  test('start says why the server did not start', async () => {
    await assert.rejects(Minizulip.start({ args: ['-banner', 'xml'] }), (err) => {
      assert.ok(err instanceof MinizulipError);
      assert.equal(err.code, 'NOT_STARTED');
      assert.match(err.msg, /exited with status 2/);
      assert.match(err.msg, /-banner/);
      return true;
    });
    await assert.rejects(Minizulip.start({ binary: '/nonexistent/minizulip' }), { code: 'NO_BINARY' });
  });

  test('attach drives a running server, and reports one that is not', async () => {
    const other = await Minizulip.attach(server.url);
    assert.ok(Math.abs((await other.now()) - (await server.now())) < 5);
    await assert.rejects(Minizulip.attach('http://127.0.0.1:1', { waitMs: 200 }), { status: 0, code: 'UNREACHABLE' });
  });
});

describe('control', () => {
  test('reset goes back to the created realm', async () => {
    const iago = await clientOf(server, 'iago@zulip.com');
    await send(iago, 'Denmark', 'reset', 'gone soon');
    assert.deepEqual(await topicMessages(iago, 'Denmark', 'reset'), ['<p>gone soon</p>']);
    await server.reset();
    assert.deepEqual(await topicMessages(iago, 'Denmark', 'reset'), []);
  });

  test('snapshots restore again and again', async () => {
    const iago = await clientOf(server, 'iago@zulip.com');
    await send(iago, 'Denmark', 'snap', 'kept');
    const snap = await server.snapshot();
    await send(iago, 'Denmark', 'snap', 'dropped');
    await server.restore(snap);
    assert.deepEqual(await topicMessages(iago, 'Denmark', 'snap'), ['<p>kept</p>']);
    await server.deleteSnapshot(snap);
    await assert.rejects(server.restore(snap), { status: 400, msg: `No snapshot with ID ${snap}` });
  });

  test('the clock crosses the edit limit without sleeping', async () => {
    const hamlet = await clientOf(server, 'hamlet@zulip.com');
    const id = await send(hamlet, 'Denmark', 'clock', 'first draft');
    const before = await server.now();
    // The dev realm's 10-minute edit limit, plus Zulip's 20-second grace.
    assert.ok((await server.advance(10 * 60 + 21)) >= before + 621);
    const res = await hamlet.messages.update({ message_id: id, content: 'too late' });
    assert.equal(res.result, 'error');
    assert.equal(res.msg, 'The time limit for editing this message has passed');
    await assert.rejects(server.advance(-1), { status: 400 });
    await assert.rejects(server.setClock(before), { status: 400 });
  });

  test('faults fail matching requests of zulip-js', async () => {
    const hamlet = await clientOf(server, 'hamlet@zulip.com');
    const id = await server.addFault({ path: '/api/v1/messages', method: 'POST', user: 'hamlet@zulip.com', status: 429, retry_after: 2, count: -1 });
    assert.deepEqual((await server.faults()).map((f) => f.fault_id), [id]);
    const res = await hamlet.messages.send({ type: 'stream', to: 'Denmark', topic: 'f', content: 'x' });
    assert.equal(res.code, 'RATE_LIMIT_HIT');
    await server.deleteFault(id);
    await send(hamlet, 'Denmark', 'f', 'through');
    await server.addFault({ path: '/api/v1/users/me', status: 500 });
    await server.clearFaults();
    assert.deepEqual(await server.faults(), []);
    await assert.rejects(server.addFault({ path: '/api/v1/no_such_endpoint', status: 500 }), { status: 400 });
  });

  test('an expired queue answers BAD_EVENT_QUEUE_ID to zulip-js', async () => {
    const hamlet = await clientOf(server, 'hamlet@zulip.com');
    const reg = await hamlet.queues.register({ event_types: ['message'] });
    assert.equal(reg.result, 'success');
    await server.expireQueue(reg.queue_id);
    const res = await hamlet.events.retrieve({ queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(res.code, 'BAD_EVENT_QUEUE_ID');
    await assert.rejects(server.expireQueue(reg.queue_id), { status: 400 });
  });

  test('the journal records zulip-js requests, with their parameters', async () => {
    const hamlet = await clientOf(server, 'hamlet@zulip.com');
    const iago = await clientOf(server, 'iago@zulip.com');
    const id = await send(hamlet, 'Denmark', 'journal', 'logged');
    await iago.users.me.getProfile();
    await iago.messages.getById({ message_id: id });
    const [sent, ...more] = await server.requests({ method: 'POST', path: '/api/v1/messages' });
    assert.equal(more.length, 0);
    assert.deepEqual([sent.user, sent.status, sent.params.content, sent.params.topic], ['hamlet@zulip.com', 200, 'logged', 'journal']);
    assert.deepEqual((await server.requests({ user: 'iago@zulip.com' })).map((r) => r.path), ['/api/v1/users/me', `/api/v1/messages/${id}`]);
    const [got] = await server.requests({ path: '/api/v1/messages/{message_id}' });
    assert.equal(got.path, `/api/v1/messages/${id}`);
    assert.deepEqual(await server.requests({ since_id: got.id }), []);
    await assert.rejects(server.requests({ user: 'nobody@zulip.com' }), { status: 400 });
    await server.clearRequests();
    assert.deepEqual(await server.requests(), []);
  });

  test('the journal names the queue of a poll', async () => {
    const hamlet = await clientOf(server, 'hamlet@zulip.com');
    const reg = await hamlet.queues.register({ event_types: ['message'] });
    await hamlet.events.retrieve({ queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    const [poll] = await server.requests({ path: '/api/v1/events' });
    assert.equal(poll.queue_id, reg.queue_id);
  });

  test('waitForRequest resolves when the request comes, rejects with 408 when none does', async () => {
    const hamlet = await clientOf(server, 'hamlet@zulip.com');
    await hamlet.users.me.getProfile();
    const last = (await server.requests()).at(-1).id;
    const waiting = server.waitForRequest({ method: 'POST', path: '/api/v1/messages', since_id: last, timeout: 30 });
    await send(hamlet, 'Denmark', 'wait', 'here it is');
    const got = await waiting;
    assert.equal(got.params.content, 'here it is');
    await assert.rejects(server.waitForRequest({ path: '/api/v1/messages', since_id: got.id, timeout: 0.1 }), {
      status: 408,
      code: 'TIMEOUT',
    });
  });

  test('snapshots are listed', async () => {
    for (const snap of await server.snapshots()) await server.deleteSnapshot(snap.snapshot_id);
    const first = await server.snapshot();
    const second = await server.snapshot();
    const listed = await server.snapshots();
    assert.deepEqual(listed.map((s) => s.snapshot_id), [first, second]);
    const now = await server.now();
    assert.ok(listed.every((s) => Math.abs(s.created - now) < 60));
    await server.deleteSnapshot(first);
    assert.deepEqual((await server.snapshots()).map((s) => s.snapshot_id), [second]);
    await server.deleteSnapshot(second);
  });

  test('queues lists the queues zulip-js registered', async () => {
    const hamlet = await clientOf(server, 'hamlet@zulip.com');
    const iago = await clientOf(server, 'iago@zulip.com');
    const reg = await hamlet.queues.register({ event_types: ['message'] });
    const [q, ...others] = await server.queues({ user: 'hamlet@zulip.com' });
    assert.equal(others.length, 0);
    assert.deepEqual([q.queue_id, q.user, q.event_types, q.pending], [reg.queue_id, 'hamlet@zulip.com', ['message'], 0]);
    await send(iago, 'Denmark', 'queues', "for hamlet's queue");
    assert.equal((await server.queues({ user: 'hamlet@zulip.com' }))[0].pending, 1);
    await server.expireQueue(reg.queue_id);
    assert.deepEqual(await server.queues({ user: 'hamlet@zulip.com' }), []);
    await assert.rejects(server.queues({ user: 'nobody@zulip.com' }), { status: 400 });
  });

  test('endpoints indexes the control API', async () => {
    const listed = new Set((await server.endpoints()).map((e) => `${e.method} ${e.path}`));
    for (const e of ['GET /minizulip/clock', 'GET /minizulip/queues', 'GET /minizulip/requests/wait', 'GET /minizulip/snapshots']) {
      assert.ok(listed.has(e), e);
    }
  });

  test('dump is the fixture document', async () => {
    const doc = await server.dump();
    const emails = doc.users.map((u) => u.email);
    assert.ok(emails.includes('iago@zulip.com') && emails.includes('hamlet@zulip.com'));
  });

  test('an unknown control path is an error', async () => {
    await assert.rejects(server.control('GET', 'no_such_thing'), { status: 404 });
  });
});
