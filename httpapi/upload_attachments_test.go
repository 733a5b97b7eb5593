package httpapi

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// attachmentEvents keeps only the attachment events of a queue's answer.
func attachmentEvents(evs []any) []map[string]any {
	var out []map[string]any
	for _, ev := range evs {
		if m := ev.(map[string]any); m["type"] == "attachment" {
			out = append(out, m)
		}
	}
	return out
}

// messageIDsOf is an attachment's message_ids as integers.
func messageIDsOf(a map[string]any) []int64 {
	var out []int64
	for _, id := range a["message_ids"].([]any) {
		out = append(out, int64(id.(float64)))
	}
	return out
}

func TestHTTPAttachmentsListAndDelete(t *testing.T) {
	e := newMsgEnv(t)
	a := e.uploadOK("hamlet@zulip.com", "a.txt", "text/plain", []byte("aaaa"))
	e.clock.Advance(time.Minute)
	b := e.uploadOK("hamlet@zulip.com", "b.txt", "text/plain", []byte("bb"))
	o := e.uploadOK("othello@zulip.com", "o.txt", "text/plain", []byte("o"))
	id1 := e.sendTo("hamlet@zulip.com", "Denmark", "t", link(a))
	id2 := e.sendTo("othello@zulip.com", "Denmark", "t", "again "+link(a)+" "+link(o))

	list, used := e.attachments("hamlet@zulip.com")
	if used != 7 || len(list) != 2 {
		t.Fatalf("hamlet's attachments %v, used %v", list, used)
	}
	newest, oldest := list[0].(map[string]any), list[1].(map[string]any)
	if newest["path_id"] != b || newest["name"] != "b.txt" || newest["size"] != 2.0 || len(messageIDsOf(newest)) != 0 {
		t.Fatalf("newest %v", newest)
	}
	start := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC).Unix()
	if oldest["path_id"] != a || oldest["create_time"] != float64(start) || newest["create_time"] != float64(start+60) {
		t.Fatalf("create_time in seconds: %v / %v", oldest, newest)
	}
	if ids := messageIDsOf(oldest); len(ids) != 2 || ids[0] != id1 || ids[1] != id2 {
		t.Fatalf("message_ids %v, want [%d %d]", ids, id1, id2)
	}
	if _, has := oldest["messages"]; has {
		t.Fatalf("messages sent at level 496: %v", oldest)
	}

	// Only the owner deletes; anything else is "Invalid attachment".
	otherID := strconv.Itoa(int(e.attachmentID("othello@zulip.com", o)))
	st, body := e.do("hamlet@zulip.com", "DELETE", "/attachments/"+otherID, nil)
	e.fail(st, body, 400, "BAD_REQUEST", "Invalid attachment")
	st, body = e.do("hamlet@zulip.com", "DELETE", "/attachments/9999", nil)
	e.fail(st, body, 400, "BAD_REQUEST", "Invalid attachment")
	st, body = e.do("hamlet@zulip.com", "DELETE", "/attachments/x", nil)
	e.fail(st, body, 404, "BAD_REQUEST", "Not Found")
	st, body = e.do("", "DELETE", "/attachments/1", nil)
	e.fail(st, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
	e.wantFile("othello@zulip.com", o, "o")

	st, body = e.do("hamlet@zulip.com", "DELETE", "/attachments/"+strconv.Itoa(int(oldest["id"].(float64))), nil)
	e.ok(st, body)
	e.wantNoFile("hamlet@zulip.com", a, 404)
	list, used = e.attachments("hamlet@zulip.com")
	if len(list) != 1 || used != 3 {
		t.Fatalf("after delete: %v, used %v", list, used)
	}
	// The messages keep their now dead links.
	st, body = e.do("hamlet@zulip.com", "GET", "/messages/"+strconv.FormatInt(id1, 10), nil)
	if e.ok(st, body)["raw_content"] != link(a) {
		t.Fatalf("message changed: %v", body)
	}
}

// attachmentID finds the ID of email's attachment at pathID.
func (e *apiEnv) attachmentID(email, pathID string) int64 {
	e.t.Helper()
	list, _ := e.attachments(email)
	for _, a := range list {
		if m := a.(map[string]any); m["path_id"] == pathID {
			return int64(m["id"].(float64))
		}
	}
	e.t.Fatalf("%s has no attachment %s", email, pathID)
	return 0
}

func TestHTTPAttachmentEventsGoToTheOwnerOnly(t *testing.T) {
	e := newMsgEnv(t)
	hq, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["attachment"]`}})
	oq, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["attachment","message"]`}})
	p := e.uploadOK("hamlet@zulip.com", "a.txt", "text/plain", []byte("abc"))
	e.sendTo("othello@zulip.com", "Denmark", "t", link(p)) // othello cannot read it: no claim
	mid := e.sendTo("hamlet@zulip.com", "Denmark", "t", link(p))
	st, body := e.do("hamlet@zulip.com", "DELETE", "/attachments/"+strconv.FormatInt(e.attachmentID("hamlet@zulip.com", p), 10), nil)
	e.ok(st, body)

	evs := attachmentEvents(e.events("hamlet@zulip.com", hq, -1, false))
	if len(evs) != 3 {
		t.Fatalf("hamlet's attachment events %v", evs)
	}
	add, upd, rem := evs[0], evs[1], evs[2]
	att := add["attachment"].(map[string]any)
	if add["op"] != "add" || att["path_id"] != p || att["name"] != "a.txt" || att["size"] != 3.0 || add["upload_space_used"] != 3.0 || len(messageIDsOf(att)) != 0 {
		t.Fatalf("add event %v", add)
	}
	if ids := messageIDsOf(upd["attachment"].(map[string]any)); upd["op"] != "update" || len(ids) != 1 || ids[0] != mid {
		t.Fatalf("update event %v", upd)
	}
	if ra := rem["attachment"].(map[string]any); rem["op"] != "remove" || len(ra) != 1 || ra["id"] != att["id"] || rem["upload_space_used"] != 0.0 {
		t.Fatalf("remove event %v", rem)
	}
	if evs := attachmentEvents(e.events("othello@zulip.com", oq, -1, false)); len(evs) != 0 {
		t.Fatalf("othello got hamlet's attachment events: %v", evs)
	}
}

func TestHTTPEditDetachesUploads(t *testing.T) {
	e := newMsgEnv(t)
	a := e.uploadOK("hamlet@zulip.com", "a.txt", "text/plain", []byte("a"))
	b := e.uploadOK("hamlet@zulip.com", "b.txt", "text/plain", []byte("b"))
	c := e.uploadOK("hamlet@zulip.com", "c.txt", "text/plain", []byte("c"))
	m1 := e.sendTo("hamlet@zulip.com", "Denmark", "t", link(a)+" "+link(b))
	e.sendTo("hamlet@zulip.com", "Denmark", "t", "b again "+link(b))
	edit := func(content string) []any {
		t.Helper()
		st, body := e.do("hamlet@zulip.com", "PATCH", "/messages/"+strconv.FormatInt(m1, 10), url.Values{"content": {content}})
		return e.ok(st, body)["detached_uploads"].([]any)
	}
	// a loses its only message; b is still linked by the second message; c is newly claimed.
	detached := edit("now only " + link(c))
	if len(detached) != 1 {
		t.Fatalf("detached_uploads %v", detached)
	}
	if d := detached[0].(map[string]any); d["path_id"] != a || d["name"] != "a.txt" || len(messageIDsOf(d)) != 0 {
		t.Fatalf("detached %v", d)
	}
	if ids := messageIDsOf(e.attachmentMap("hamlet@zulip.com", c)); len(ids) != 1 || ids[0] != m1 {
		t.Fatalf("c claimed by the edit: %v", ids)
	}
	if len(messageIDsOf(e.attachmentMap("hamlet@zulip.com", b))) != 1 {
		t.Fatal("b must have lost m1 only")
	}
	e.wantFile("othello@zulip.com", c, "c")
	e.wantNoFile("othello@zulip.com", a, 403) // detached: private again
	// An edit that keeps the links detaches nothing.
	if d := edit("still " + link(c)); len(d) != 0 {
		t.Fatalf("detached %v", d)
	}
	// Another user's file the edit unlinks is not the editor's to delete.
	o := e.uploadOK("othello@zulip.com", "o.txt", "text/plain", []byte("o"))
	m3 := e.sendTo("othello@zulip.com", "Denmark", "t", link(o))
	st, body := e.do("iago@zulip.com", "PATCH", "/messages/"+strconv.FormatInt(m3, 10), url.Values{"topic": {"moved"}})
	e.ok(st, body)
	st, body = e.do("othello@zulip.com", "PATCH", "/messages/"+strconv.FormatInt(m3, 10), url.Values{"content": {"gone"}})
	if d := e.ok(st, body)["detached_uploads"].([]any); len(d) != 1 {
		t.Fatalf("othello's own file: %v", d)
	}
}

// attachmentMap is email's attachment at pathID.
func (e *apiEnv) attachmentMap(email, pathID string) map[string]any {
	e.t.Helper()
	list, _ := e.attachments(email)
	for _, a := range list {
		if m := a.(map[string]any); m["path_id"] == pathID {
			return m
		}
	}
	e.t.Fatalf("%s has no attachment %s", email, pathID)
	return nil
}

func TestHTTPDeletingTheLastLinkDeletesTheFile(t *testing.T) {
	e := newMsgEnv(t)
	p := e.uploadOK("hamlet@zulip.com", "a.txt", "text/plain", []byte("a"))
	m1 := e.sendTo("hamlet@zulip.com", "Denmark", "t", link(p))
	m2 := e.sendTo("hamlet@zulip.com", "Denmark", "other", link(p))
	st, body := e.do("hamlet@zulip.com", "DELETE", "/messages/"+strconv.FormatInt(m1, 10), nil)
	e.ok(st, body)
	if ids := messageIDsOf(e.attachmentMap("hamlet@zulip.com", p)); len(ids) != 1 || ids[0] != m2 {
		t.Fatalf("after the first delete: %v", ids)
	}
	e.wantFile("othello@zulip.com", p, "a")
	// Deleting the topic holding the last link deletes the file.
	st, body = e.do("iago@zulip.com", "POST", "/streams/"+e.channelID("Denmark")+"/delete_topic", url.Values{"topic_name": {"other"}})
	e.ok(st, body)
	e.wantNoFile("hamlet@zulip.com", p, 404)
	if list, used := e.attachments("hamlet@zulip.com"); len(list) != 0 || used != 0 {
		t.Fatalf("attachments left: %v %v", list, used)
	}
	if n := e.realm.UploadStore().(interface{ Len() int }).Len(); n != 0 {
		t.Fatalf("%d blobs left", n)
	}
}

// channelID is a channel's ID as a path segment.
func (e *apiEnv) channelID(name string) string {
	e.t.Helper()
	st, body := e.do("iago@zulip.com", "GET", "/get_stream_id", url.Values{"stream": {name}})
	return jsonNumber(e.ok(st, body)["stream_id"])
}

func TestHTTPUnclaimedUploadsAreSwept(t *testing.T) {
	e := newMsgEnv(t)
	unused := e.uploadOK("hamlet@zulip.com", "unused.txt", "text/plain", []byte("u"))
	used := e.uploadOK("hamlet@zulip.com", "used.txt", "text/plain", []byte("x"))
	detached := e.uploadOK("hamlet@zulip.com", "detached.txt", "text/plain", []byte("d"))
	e.sendTo("hamlet@zulip.com", "Denmark", "t", link(used))
	m := e.sendTo("hamlet@zulip.com", "Denmark", "t", link(detached))
	st, body := e.do("hamlet@zulip.com", "PATCH", "/messages/"+strconv.FormatInt(m, 10), url.Values{"content": {"no link"}})
	e.ok(st, body)
	e.clock.Advance(realm.UnclaimedUploadLifetime - time.Hour)
	e.wantFile("hamlet@zulip.com", unused, "u")
	e.wantFile("hamlet@zulip.com", detached, "d")
	q, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["attachment"]`}, "queue_lifespan_secs": {"7200"}})
	e.clock.Advance(time.Hour)
	e.wantNoFile("hamlet@zulip.com", unused, 404)
	e.wantNoFile("hamlet@zulip.com", detached, 404) // unclaimed and old enough
	e.wantFile("hamlet@zulip.com", used, "x")
	removed := 0
	for _, ev := range attachmentEvents(e.events("hamlet@zulip.com", q, -1, false)) {
		if ev["op"] == "remove" {
			removed++
		}
	}
	if removed != 2 {
		t.Fatalf("%d remove events, want 2", removed)
	}
}

func TestHTTPAttachmentShapeFollowsFeatureLevel(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), realmFeatureLevel(400, "10.0"))
	p := e.uploadOK("hamlet@zulip.com", "a.txt", "text/plain", []byte("a"))
	m := e.sendTo("hamlet@zulip.com", "Denmark", "t", link(p))
	a := e.attachmentMap("hamlet@zulip.com", p)
	msgs, ok := a["messages"].([]any)
	if _, has := a["message_ids"]; has || !ok || len(msgs) != 1 {
		t.Fatalf("level 400 attachment %v", a)
	}
	want := float64(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC).UnixMilli())
	if mm := msgs[0].(map[string]any); mm["id"] != float64(m) || mm["date_sent"] != want || a["create_time"] != want {
		t.Fatalf("milliseconds before level 443: %v", a)
	}
}
