// Realms of their own (POST /minizulip/realms) and fixtures loaded at run
// time (POST /minizulip/fixture), driven by zulip-js. node:test runs the
// tests of this file one after another; each gets a realm of its own, as
// each file or worker of a parallel suite would.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import zulipInit from 'zulip-js';

import { Minizulip } from '../minizulip.js';

const LAB = {
  minizulip_fixture: 1,
  settings: { name: 'Lab' },
  users: [
    { id: 1, email: 'olivia@example.com', full_name: 'Olivia', role: 100 },
    { id: 2, email: 'ada@example.com', full_name: 'Ada' },
  ],
  channels: [{ id: 1, name: 'lab', description: 'Experiments' }],
  subscriptions: [
    { user_id: 1, channel_id: 1 },
    { user_id: 2, channel_id: 1 },
  ],
  messages: [
    { id: 1, sender_id: 2, channel_id: 1, topic: 'engines', content: 'It **computes**.', timestamp: 1767225600, flags: { 1: [], 2: ['read'] } },
  ],
};

let server;
before(async () => {
  server = await Minizulip.start();
});
after(async () => {
  await server?.close();
});

async function clientOf(target, email) {
  return zulipInit({ username: email, apiKey: await target.apiKey(email), realm: target.url });
}

async function topic(client, channel, name) {
  const res = await client.messages.retrieve({
    anchor: 'newest',
    num_before: 10,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: name },
    ],
  });
  return res.messages.map((m) => m.content);
}

test('a realm of its own: own users, clock, faults and journal', async () => {
  const realm = await server.createRealm({ seed: 'empty' });
  try {
    assert.notEqual(realm.url, server.url);
    assert.equal((await realm.serverSettings()).realm_uri, realm.url);
    assert.ok((await server.realms()).some((r) => r.realm_id === realm.realmId));
    await assert.rejects(realm.apiKey('iago@zulip.com'));
    const owner = await clientOf(realm, 'owner@zulip.com');
    await realm.advance(3 * 3600);
    assert.ok((await realm.now()) > (await server.now()) + 3600);
    await realm.addFault({ path: '/api/v1/users/me', status: 500 });
    assert.deepEqual(await server.faults(), []);
    await owner.users.me.getProfile();
    assert.deepEqual((await realm.requests({ path: '/api/v1/users/me' })).map((r) => r.status), [500]);
    assert.deepEqual(await server.requests({ path: '/api/v1/users/me' }), []);
  } finally {
    await realm.close();
  }
  assert.ok(!(await server.realms()).some((r) => r.realm_id === realm.realmId));
  await assert.rejects(server.deleteRealm(realm.realmId), (err) => err.status >= 400 && err.status < 500);
});

test('a realm from a fixture, or with seeded messages at a feature level', async () => {
  const lab = await server.createRealm({ fixture: LAB });
  try {
    assert.deepEqual(await topic(await clientOf(lab, 'ada@example.com'), 'lab', 'engines'), ['<p>It <strong>computes</strong>.</p>']);
  } finally {
    await lab.close();
  }
  const realm = await server.createRealm({ messages: 5, feature_level: 300 });
  try {
    assert.equal((await realm.serverSettings()).zulip_feature_level, 300);
    assert.equal((await realm.dump()).messages.length, 5);
  } finally {
    await realm.close();
  }
  await assert.rejects(server.createRealm({ seed: 'nonsense' }), { status: 400 });
  const bad = { ...LAB, users: [{ ...LAB.users[0], api_key: 'short' }, LAB.users[1]] };
  await assert.rejects(server.createRealm({ fixture: bad }), (err) => err.status === 400 && err.msg.includes('users[0].api_key'));
});

test('a fixture loaded at run time; one that does not load changes nothing', async () => {
  const realm = await server.createRealm();
  try {
    await realm.load(LAB);
    const ada = await clientOf(realm, 'ada@example.com');
    const lab = ['<p>It <strong>computes</strong>.</p>'];
    assert.deepEqual(await topic(ada, 'lab', 'engines'), lab);
    const bad = { ...LAB, users: [{ ...LAB.users[0], api_key: 'short' }, LAB.users[1]] };
    await assert.rejects(realm.load(bad), (err) => err.status === 400 && err.msg.includes('users[0].api_key'));
    assert.deepEqual(await topic(ada, 'lab', 'engines'), lab);
    // Reset goes back to the document loaded.
    await ada.messages.send({ type: 'stream', to: 'lab', topic: 'engines', content: 'and more' });
    await realm.reset();
    assert.deepEqual(await topic(ada, 'lab', 'engines'), lab);
  } finally {
    await realm.close();
  }
});
