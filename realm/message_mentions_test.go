package realm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/message"
)

func flagsOf(t *testing.T, r *Realm, userID int, id int64) message.Flags {
	t.Helper()
	um, ok := r.messages.store.Copy(userID, id)
	if !ok {
		t.Fatalf("user %d did not receive message %d", userID, id)
	}
	return um.Flags
}

func TestSendSetsMentionFlags(t *testing.T) {
	r, _ := newTestRealm(t)
	res, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "castle", "@**Othello, the Moor of Venice** and @_**Iago**, look")
	if err != nil {
		t.Fatal(err)
	}
	if f := flagsOf(t, r, idOthello, res.ID); f&message.Mentioned == 0 || f&message.WildcardMentioned != 0 {
		t.Errorf("othello flags %v: want mentioned", f.Names())
	}
	if f := flagsOf(t, r, idIago, res.ID); f&message.Mentioned != 0 {
		t.Errorf("iago flags %v: a silent mention sets no flag", f.Names())
	}
	m, _, _ := r.As(idOthello).Message(bg, res.ID, ViewOptions{ApplyMarkdown: true})
	if !strings.Contains(m.Content, `<span class="user-mention" data-user-id="12">@Othello, the Moor of Venice</span>`) {
		t.Errorf("content %q", m.Content)
	}

	res, err = r.As(idIago).SendChannelMessage(bg, "Denmark", "castle", "@*hamletcharacters* and @**all**")
	if err != nil {
		t.Fatal(err)
	}
	if f := flagsOf(t, r, idHamlet, res.ID); f&message.Mentioned == 0 || f&message.WildcardMentioned == 0 {
		t.Errorf("hamlet flags %v: want mentioned (group) and wildcard_mentioned", f.Names())
	}
	if f := flagsOf(t, r, idOthello, res.ID); f&message.Mentioned != 0 || f&message.WildcardMentioned == 0 {
		t.Errorf("othello flags %v: want wildcard_mentioned only", f.Names())
	}

	// @**topic** flags the topic's participants only.
	res, err = r.As(idIago).SendChannelMessage(bg, "Denmark", "castle", "@**topic** meeting")
	if err != nil {
		t.Fatal(err)
	}
	if f := flagsOf(t, r, idHamlet, res.ID); f&message.WildcardMentioned == 0 {
		t.Errorf("hamlet (participant) flags %v", f.Names())
	}
	if f := flagsOf(t, r, idOthello, res.ID); f&message.WildcardMentioned != 0 {
		t.Errorf("othello (not a participant) flags %v", f.Names())
	}
}

func TestRenderMessageUsesRealmData(t *testing.T) {
	r, _ := newTestRealm(t)
	res, err := r.As(idHamlet).RenderMessage(bg, "#**Denmark** @**Iago**")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Rendered, `class="stream"`) || !strings.Contains(res.Rendered, `data-user-id="11"`) {
		t.Errorf("rendered %q", res.Rendered)
	}
}

func TestWildcardMentionPermission(t *testing.T) {
	r, _ := newTestRealm(t)
	var ids []int
	for i := range 16 {
		id, err := r.AddUser(NewUser{Email: fmt.Sprintf("extra%d@zulip.com", i), FullName: fmt.Sprintf("Extra %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Denmark"}}, Principals: Principals{IDs: ids}}); err != nil {
		t.Fatal(err)
	}
	// Hamlet is a member; the default group is administrators.
	_, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "big", "@**all** hello")
	wantCode(t, err, CodeStreamWildcardMentionNotAllow, "channel wildcard mentions")
	if _, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "big", "@_**all** silent is fine"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "big", "@**everyone** from an admin"); err != nil {
		t.Fatal(err)
	}
	// A topic with more than 15 participants.
	for _, id := range ids {
		if _, err := r.As(id).SendChannelMessage(bg, "Denmark", "crowd", "here"); err != nil {
			t.Fatal(err)
		}
	}
	_, err = r.As(idHamlet).SendChannelMessage(bg, "Denmark", "crowd", "@**topic** hi")
	wantCode(t, err, CodeTopicWildcardMentionNotAllow, "topic wildcard mentions")
	// Wildcards are checked before group mentions.
	_, err = r.As(idHamlet).SendChannelMessage(bg, "Denmark", "crowd", "@*role:members* @**topic** hi")
	wantCode(t, err, CodeTopicWildcardMentionNotAllow, "topic wildcard mentions")
	_, err = r.As(idHamlet).SendChannelMessage(bg, "Denmark", "crowd", "@*role:members* @**all** hi")
	wantCode(t, err, CodeStreamWildcardMentionNotAllow, "channel wildcard mentions")
	if _, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "small", "@**topic** hi"); err != nil {
		t.Fatalf("small topic: %v", err)
	}
}
