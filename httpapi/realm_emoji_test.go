package httpapi

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// emojiFile is one file part of an upload: its form field, file name and
// bytes.
type emojiFile struct {
	field, name string
	data        []byte
}

// uploadEmoji posts a multipart body with the given files to POST
// /realm/emoji/{name} as email.
func (e *apiEnv) uploadEmoji(email, name string, files ...emojiFile) (int, map[string]any) {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range files {
		part, err := w.CreateFormFile(f.field, f.name)
		if err != nil {
			e.t.Fatal(err)
		}
		_, _ = part.Write(f.data)
	}
	_ = w.Close()
	req, err := http.NewRequest("POST", e.srv.URL+APIPrefix+"/realm/emoji/"+url.PathEscape(name), &buf)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	_, key, _ := e.realm.APIKey(email)
	req.SetBasicAuth(email, key)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		e.t.Fatal(err)
	}
	return resp.StatusCode, out
}

// pngBytes is a small valid PNG.
func pngBytes(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 3))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// realmEmojiList is GET /realm/emoji's emoji as email sees them.
func (e *apiEnv) realmEmojiList(email string) map[string]any {
	e.t.Helper()
	return e.ok(e.do(email, "GET", "/realm/emoji", nil))["emoji"].(map[string]any)
}

// fetchPath GETs a path of the server without credentials.
func (e *apiEnv) fetchPath(path string) (int, string, []byte) {
	e.t.Helper()
	resp, err := e.srv.Client().Get(e.srv.URL + path)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), body
}

func TestHTTPRealmEmoji(t *testing.T) {
	e := newMsgEnv(t)
	iagoQ, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["realm_emoji"]`}})
	guestQ, _ := e.register("polonius@zulip.com", url.Values{"event_types": {`["realm_emoji"]`}})
	img := pngBytes(t)
	e.ok(e.uploadEmoji("hamlet@zulip.com", "party parrot", emojiFile{"filename", "parrot.png", img}))

	parrot := map[string]any{"id": "2", "name": "party_parrot", "source_url": "/user_avatars/2/emoji/images/2.png",
		"still_url": nil, "deactivated": false, "author_id": float64(10)}
	greenTick := map[string]any{"id": "1", "name": "green_tick", "source_url": "/user_avatars/2/emoji/images/1.png",
		"still_url": nil, "deactivated": false, "author_id": float64(11)}
	want := map[string]any{"1": greenTick, "2": parrot}
	if diff := cmp.Diff(want, e.realmEmojiList("polonius@zulip.com")); diff != "" {
		t.Fatalf("GET /realm/emoji (-want +got):\n%s", diff)
	}
	_, reg := e.register("cordelia@zulip.com", url.Values{"fetch_event_types": {`["realm_emoji"]`}})
	if diff := cmp.Diff(want, reg["realm_emoji"]); diff != "" {
		t.Fatalf("register's realm_emoji (-want +got):\n%s", diff)
	}
	for who, qid := range map[string]string{"iago": iagoQ, "polonius": guestQ} {
		evs := e.events(who+"@zulip.com", qid, -1, false)
		wantEv := map[string]any{"id": float64(0), "type": "realm_emoji", "op": "update", "realm_emoji": want}
		if len(evs) != 1 {
			t.Fatalf("%s got %v", who, evs)
		}
		if diff := cmp.Diff(wantEv, evs[0]); diff != "" {
			t.Fatalf("%s's event (-want +got):\n%s", who, diff)
		}
	}
	// The image is served at its source_url, to anyone.
	status, ctype, body := e.fetchPath("/user_avatars/2/emoji/images/2.png")
	if status != 200 || ctype != "image/png" || !bytes.Equal(body, img) {
		t.Fatalf("image: %d %q %d bytes", status, ctype, len(body))
	}
	if status, _, _ := e.fetchPath("/user_avatars/2/emoji/images/7.png"); status != 404 {
		t.Fatalf("unknown image: %d", status)
	}
	// The new emoji renders and is a reaction.
	id := e.sendTo("othello@zulip.com", "Denmark", "castle", "look :party_parrot:")
	if m := e.message("othello@zulip.com", "1"); !strings.Contains(m["content"].(string), `src="/user_avatars/2/emoji/images/2.png"`) {
		t.Fatalf("rendered %v", m["content"])
	}
	e.ok(e.do("othello@zulip.com", "POST", reactionPath(id), url.Values{"emoji_name": {"party_parrot"}}))

	// Deactivating: not by other members; by the author, once.
	status, resp := e.do("othello@zulip.com", "DELETE", "/realm/emoji/party_parrot", nil)
	e.fail(status, resp, 400, "BAD_REQUEST", "Must be an organization administrator or emoji author")
	e.ok(e.do("hamlet@zulip.com", "DELETE", "/realm/emoji/party_parrot", nil))
	status, resp = e.do("hamlet@zulip.com", "DELETE", "/realm/emoji/party_parrot", nil)
	e.fail(status, resp, 404, "BAD_REQUEST", "Emoji 'party_parrot' does not exist")
	status, resp = e.do("iago@zulip.com", "DELETE", "/realm/emoji/no_such", nil)
	e.fail(status, resp, 404, "BAD_REQUEST", "Emoji 'no_such' does not exist")
	// Administrators deactivate anyone's.
	e.ok(e.do("iago@zulip.com", "DELETE", "/realm/emoji/green_tick", nil))
	list := e.realmEmojiList("hamlet@zulip.com")
	if list["2"].(map[string]any)["deactivated"] != true || list["1"].(map[string]any)["deactivated"] != true || len(list) != 2 {
		t.Fatalf("after deactivation %v", list)
	}
	evs := e.events("polonius@zulip.com", guestQ, 0, false)
	if len(evs) != 2 || evs[1].(map[string]any)["realm_emoji"].(map[string]any)["1"].(map[string]any)["deactivated"] != true {
		t.Fatalf("deactivation events %v", evs)
	}
	// Old messages and reactions keep it: the image is still served and
	// the reaction still shown.
	if status, _, _ := e.fetchPath("/user_avatars/2/emoji/images/2.png"); status != 200 {
		t.Fatalf("deactivated emoji's image: %d", status)
	}
	if got := e.reactionsShown("othello@zulip.com", id); len(got) != 1 || got[0].(map[string]any)["emoji_code"] != "2" {
		t.Fatalf("reactions %v", got)
	}
	// The name is free again.
	e.ok(e.uploadEmoji("othello@zulip.com", "party_parrot", emojiFile{"f", "p.png", img}))
	if got := e.realmEmojiList("hamlet@zulip.com")["3"].(map[string]any); got["name"] != "party_parrot" || got["author_id"] != float64(12) {
		t.Fatalf("re-added %v", got)
	}
}

// Every refusal has Zulip's code and message, adds nothing and sends
// nothing.
func TestHTTPRealmEmojiRefusals(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["realm_emoji"]`}})
	img := pngBytes(t)
	file := emojiFile{"filename", "e.png", img}
	for _, c := range []struct {
		who, name string
		files     []emojiFile
		code, msg string
	}{
		{"polonius", "my_emoji", []emojiFile{file}, "BAD_REQUEST", "Not allowed for guest users"},
		{"default-bot", "my_emoji", []emojiFile{file}, "BAD_REQUEST", "This endpoint does not accept bot requests."},
		{"hamlet", " ", []emojiFile{file}, "BAD_REQUEST", "Emoji name is missing"},
		{"hamlet", "My_emoji", []emojiFile{file}, "BAD_REQUEST", "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."},
		{"hamlet", "my.emoji", []emojiFile{file}, "BAD_REQUEST", "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."},
		{"hamlet", "my_emoji_", []emojiFile{file}, "BAD_REQUEST", "Emoji names must end with either a letter or digit."},
		{"hamlet", "green_tick", []emojiFile{file}, "BAD_REQUEST", "A custom emoji with this name already exists."},
		{"hamlet", "my_emoji", nil, "BAD_REQUEST", "You must upload exactly one file."},
		{"hamlet", "my_emoji", []emojiFile{file, {"other", "b.png", img}}, "BAD_REQUEST", "You must upload exactly one file."},
		{"hamlet", "smile", []emojiFile{file}, "BAD_REQUEST", "Only administrators can override default emoji."},
		{"hamlet", "my_emoji", []emojiFile{{"f", "big.png", make([]byte, 5<<20+1)}}, "BAD_REQUEST", "Uploaded file is larger than the allowed limit of 5 MiB"},
		{"hamlet", "my_emoji", []emojiFile{{"f", "e.png", []byte("not an image")}}, "BAD_IMAGE", "Could not decode image; did you upload an image file?"},
	} {
		status, body := e.uploadEmoji(c.who+"@zulip.com", c.name, c.files...)
		e.fail(status, body, 400, c.code, c.msg)
	}
	// can_add_custom_emoji_group decides who may add: administrators (11).
	e.ok(e.patchRealm("iago@zulip.com", url.Values{"can_add_custom_emoji_group": {`{"new": 11}`}}))
	status, body := e.uploadEmoji("hamlet@zulip.com", "my_emoji", file)
	e.fail(status, body, 400, "BAD_REQUEST", "Insufficient permission")
	if list := e.realmEmojiList("iago@zulip.com"); len(list) != 1 {
		t.Fatalf("refusals added emoji: %v", list)
	}
	if ops := eventOps(e.events("iago@zulip.com", qid, -1, false)); len(ops) != 0 {
		t.Fatalf("refusals sent events %v", ops)
	}
	// Administrators may shadow a built-in emoji, and are in the group.
	e.ok(e.uploadEmoji("iago@zulip.com", "smile", file))
	if list := e.realmEmojiList("iago@zulip.com"); list["2"].(map[string]any)["name"] != "smile" {
		t.Fatalf("list %v", list)
	}
	// Two files in one field: the last one counts, as Django reads them.
	e.ok(e.uploadEmoji("iago@zulip.com", "twice", emojiFile{"f", "a.txt", []byte("text")}, emojiFile{"f", "b.png", img}))
	if got := e.realmEmojiList("iago@zulip.com")["3"].(map[string]any)["source_url"]; got != "/user_avatars/2/emoji/images/3.png" {
		t.Fatalf("source_url %v", got)
	}
	_, reg := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm"]`}})
	if reg["realm_can_add_custom_emoji_group"] != float64(11) {
		t.Fatalf("realm_can_add_custom_emoji_group %v", reg["realm_can_add_custom_emoji_group"])
	}
}
