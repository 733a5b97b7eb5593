package realm

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/group"
)

// testPNG is a small valid PNG image.
func testPNG(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testAnimatedGIF is a two-frame GIF.
func testAnimatedGIF(t testing.TB) []byte {
	t.Helper()
	frame := image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black, color.White})
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, &gif.GIF{Image: []*image.Paletted{frame, frame}, Delay: []int{1, 1}}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func emojiUpload(name, file string, data []byte) EmojiUpload {
	return EmojiUpload{Name: name, Files: []EmojiFile{{Name: file, Data: data}}}
}

func TestAddAndDeactivateRealmEmoji(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idCordelia, QueueOptions{EventTypes: []string{"realm_emoji"}})
	if err := r.As(idHamlet).AddRealmEmoji(bg, emojiUpload(" party parrot ", "parrot.gif", testAnimatedGIF(t))); err != nil {
		t.Fatal(err)
	}
	list, _ := r.As(idCordelia).RealmEmojiList(bg)
	e := list["2"]
	if e.Name != "party_parrot" || e.AuthorID != idHamlet || e.Deactivated ||
		e.SourceURL != "/user_avatars/2/emoji/images/2.gif" || e.StillURL == nil || *e.StillURL != "/user_avatars/2/emoji/images/still/2.png" {
		t.Fatalf("new emoji %+v", e)
	}
	if list["1"].Name != "green_tick" || list["1"].StillURL != nil {
		t.Fatalf("seeded emoji %+v", list["1"])
	}
	data, ct, ok := r.RealmEmojiImage("2.gif")
	if !ok || ct != "image/gif" || !bytes.Equal(data, testAnimatedGIF(t)) {
		t.Fatalf("image %v %q", ok, ct)
	}
	if still, ct, ok := r.RealmEmojiImage("still/2.png"); !ok || ct != "image/png" || !bytes.HasPrefix(still, []byte("\x89PNG")) {
		t.Fatalf("still image %v %q", ok, ct)
	}
	for _, missing := range []string{"3.png", "2.png", "still/1.png", ""} { // 1.png: the seeded green_tick
		if _, _, ok := r.RealmEmojiImage(missing); ok {
			t.Errorf("%q served", missing)
		}
	}
	// The renderer knows the new emoji at once.
	res, _ := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", ":party_parrot:")
	m, _, _ := r.As(idHamlet).Message(bg, res.ID, ViewOptions{ApplyMarkdown: true})
	if !strings.Contains(m.Content, `src="/user_avatars/2/emoji/images/2.gif"`) {
		t.Fatalf("rendered %s", m.Content)
	}
	// Only administrators and the author deactivate it.
	wantCode(t, r.As(idOthello).DeactivateRealmEmoji(bg, "party_parrot"), CodeBadRequest,
		"Must be an organization administrator or emoji author")
	if err := r.As(idHamlet).DeactivateRealmEmoji(bg, "party_parrot"); err != nil {
		t.Fatal(err)
	}
	re := wantCode(t, r.As(idHamlet).DeactivateRealmEmoji(bg, "party_parrot"), CodeBadRequest, "Emoji 'party_parrot' does not exist")
	if re.Status != 404 {
		t.Fatalf("status %d", re.Status)
	}
	if err := r.As(idIago).DeactivateRealmEmoji(bg, "green_tick"); err != nil {
		t.Fatal(err)
	}
	list, _ = r.As(idCordelia).RealmEmojiList(bg)
	if !list["1"].Deactivated || !list["2"].Deactivated || len(list) != 2 {
		t.Fatalf("after deactivation %+v", list)
	}
	// The name is free again: a new emoji, a new ID.
	if err := r.As(idOthello).AddRealmEmoji(bg, emojiUpload("party_parrot", "p.PNG", testPNG(t))); err != nil {
		t.Fatal(err)
	}
	list, _ = r.As(idCordelia).RealmEmojiList(bg)
	if e := list["3"]; e.Name != "party_parrot" || e.SourceURL != "/user_avatars/2/emoji/images/3.PNG" || e.StillURL != nil {
		t.Fatalf("re-added emoji %+v", e)
	}
	evs := pending(t, r, idCordelia, q, -1)
	if len(evs) != 4 {
		t.Fatalf("%d realm_emoji events, want 4", len(evs))
	}
	last := evs[3].Payload.(RealmEmojiEvent)
	if last.Op != "update" || len(last.RealmEmoji) != 3 || last.RealmEmoji["2"].Deactivated != true {
		t.Fatalf("last event %+v", last)
	}
}

// Each refusal, in Zulip's order, changes nothing and sends nothing.
func TestAddRealmEmojiRefusals(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"realm_emoji"}})
	good := testPNG(t)
	for _, c := range []struct {
		who  int
		req  EmojiUpload
		code Code
		msg  string
	}{
		{idPolonius, emojiUpload("x", "x.png", good), CodeBadRequest, "Not allowed for guest users"},
		{idDefaultBot, emojiUpload("x", "x.png", good), CodeBadRequest, "This endpoint does not accept bot requests."},
		{idHamlet, emojiUpload("", "x.png", good), CodeBadRequest, "Emoji name is missing"},
		{idHamlet, emojiUpload("My_emoji", "x.png", good), CodeBadRequest, "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."},
		{idHamlet, emojiUpload("my_emoji-", "x.png", good), CodeBadRequest, "Emoji names must end with either a letter or digit."},
		{idHamlet, emojiUpload("green_tick", "x.png", good), CodeBadRequest, "A custom emoji with this name already exists."},
		{idHamlet, EmojiUpload{Name: "my_emoji"}, CodeBadRequest, "You must upload exactly one file."},
		{idHamlet, EmojiUpload{Name: "my_emoji", Files: []EmojiFile{{"a.png", good}, {"b.png", good}}}, CodeBadRequest, "You must upload exactly one file."},
		{idHamlet, emojiUpload("smile", "x.png", good), CodeBadRequest, "Only administrators can override default emoji."},
		{idHamlet, emojiUpload("my_emoji", "x.png", make([]byte, 5<<20+1)), CodeBadRequest, "Uploaded file is larger than the allowed limit of 5 MiB"},
		{idHamlet, emojiUpload("my_emoji", "x.png", []byte("plain text")), CodeBadImage, "Could not decode image; did you upload an image file?"},
	} {
		wantCode(t, r.As(c.who).AddRealmEmoji(bg, c.req), c.code, c.msg)
	}
	// The permission is the realm's can_add_custom_emoji_group.
	r.settings.CanAddCustomEmojiGroup = NamedGroupSetting(r.groups.byName[group.Administrators].ID)
	wantCode(t, r.As(idHamlet).AddRealmEmoji(bg, emojiUpload("my_emoji", "x.png", good)), CodeBadRequest, "Insufficient permission")
	if list, _ := r.As(idIago).RealmEmojiList(bg); len(list) != 1 {
		t.Fatalf("refusals added emoji: %+v", list)
	}
	if evs := pending(t, r, idIago, q, -1); len(evs) != 0 {
		t.Fatalf("refusals sent %d events", len(evs))
	}
	// An administrator may shadow a built-in emoji's name.
	if err := r.As(idIago).AddRealmEmoji(bg, emojiUpload("smile", "s.png", good)); err != nil {
		t.Fatal(err)
	}
	// A custom emoji's name takes precedence over the built-in one for
	// reactions, as for rendering.
	res, _ := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "hi")
	if err := react(r, idHamlet, res.ID, "smile", "", ""); err != nil {
		t.Fatal(err)
	}
	if got := reactionsOf(t, r, idHamlet, res.ID); got[0].ReactionType != "realm_emoji" || got[0].EmojiCode != "2" {
		t.Fatalf("reaction %+v", got[0])
	}
}

// The dev realm's green_tick has an image at its source_url, as on a
// Zulip dev server, where it used to answer 404.
func TestSeededGreenTickHasAnImage(t *testing.T) {
	r, _ := newTestRealm(t)
	src := r.realmEmojiMap()["1"].SourceURL
	data, ct, ok := r.RealmEmojiImage(strings.TrimPrefix(src, EmojiImagePrefix))
	if !ok || ct != "image/png" {
		t.Fatalf("%s: %v %q", src, ok, ct)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil || img.Bounds().Dx() != 64 {
		t.Fatalf("decode: %v", err)
	}
	if _, _, ok := r.RealmEmojiImage("2.png"); ok {
		t.Fatal("an image no emoji has")
	}
}
