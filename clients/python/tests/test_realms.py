"""Realms of their own (POST /minizulip/realms) and fixtures loaded at run
time (POST /minizulip/fixture)."""

import pytest

import minizulip as mz

LAB = {
    "minizulip_fixture": 1,
    "settings": {"name": "Lab"},
    "users": [
        {"id": 1, "email": "olivia@example.com", "full_name": "Olivia", "role": 100},
        {"id": 2, "email": "ada@example.com", "full_name": "Ada"},
    ],
    "channels": [{"id": 1, "name": "lab", "description": "Experiments"}],
    "subscriptions": [{"user_id": 1, "channel_id": 1}, {"user_id": 2, "channel_id": 1}],
    "messages": [{"id": 1, "sender_id": 2, "channel_id": 1, "topic": "engines", "content": "It **computes**.",
                  "timestamp": 1767225600, "flags": {"1": [], "2": ["read"]}}],
}


def test_a_realm_of_its_own(minizulip_server, zulip):
    server = minizulip_server
    realm = server.create_realm(seed="empty")
    try:
        assert realm.url != server.url
        assert realm.server_settings()["realm_uri"] == realm.url
        assert realm.realm_id in [r["realm_id"] for r in server.realms()]
        # Its own users, clock, faults, journal.
        owner = zulip(realm, "owner@zulip.com")
        with pytest.raises(mz.MinizulipError):
            realm.api_key("iago@zulip.com")
        before = server.now()
        realm.advance(3 * 3600)
        assert realm.now() > server.now() + 3600 > before
        realm.add_fault("/api/v1/users/me", status=500)
        assert server.faults() == [] and len(realm.faults()) == 1
        status, _ = owner.call("GET", "/users/me")
        assert status == 500
        assert [r["path"] for r in realm.requests(path="/api/v1/users/me")] == ["/api/v1/users/me"]
        assert server.requests(path="/api/v1/users/me") == []
    finally:
        realm.close()
    assert realm.realm_id not in [r["realm_id"] for r in server.realms()]
    with pytest.raises(mz.MinizulipError) as err:
        server.delete_realm(realm.realm_id)
    assert 400 <= err.value.status < 500
    with pytest.raises(mz.MinizulipError):
        realm.now()


def test_realm_options(minizulip_server, zulip):
    with minizulip_server.create_realm(messages=5, feature_level=300) as realm:
        assert realm.server_settings()["zulip_feature_level"] == 300
        assert len(realm.dump()["messages"]) == 5
    with minizulip_server.create_realm(fixture=LAB) as realm:
        ada = zulip(realm, "ada@example.com")
        assert ada.topic_messages("lab", "engines") == ["<p>It <strong>computes</strong>.</p>"]
    with pytest.raises(mz.MinizulipError) as err:
        minizulip_server.create_realm(seed="nonsense")
    assert err.value.status == 400
    bad = dict(LAB, users=[dict(LAB["users"][0], api_key="short")] + LAB["users"][1:])
    with pytest.raises(mz.MinizulipError) as err:
        minizulip_server.create_realm(fixture=bad)
    assert err.value.status == 400 and "users[0].api_key" in err.value.msg


def test_load_replaces_the_realm(minizulip_server, zulip):
    with minizulip_server.create_realm() as realm:
        realm.load(LAB)
        assert {u["email"] for u in realm.dump()["users"] if "bot_type" not in u} >= {"olivia@example.com", "ada@example.com"}
        assert zulip(realm, "ada@example.com").topic_messages("lab", "engines") == ["<p>It <strong>computes</strong>.</p>"]
        bad = dict(LAB, users=[dict(LAB["users"][0], api_key="short")] + LAB["users"][1:])
        with pytest.raises(mz.MinizulipError) as err:
            realm.load(bad)
        assert err.value.status == 400 and "users[0].api_key" in err.value.msg
        # Refused whole: the realm is still the lab.
        ada = zulip(realm, "ada@example.com")
        assert ada.topic_messages("lab", "engines") == ["<p>It <strong>computes</strong>.</p>"]
        # Reset goes back to the document loaded.
        ada.send("lab", "engines", "and more")
        realm.reset()
        assert ada.topic_messages("lab", "engines") == ["<p>It <strong>computes</strong>.</p>"]
