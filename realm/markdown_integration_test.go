package realm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/linkifier"
)

func renderAs(t *testing.T, r *Realm, userID int, content string) string {
	t.Helper()
	res, err := r.As(userID).RenderMessage(bg, content)
	if err != nil {
		t.Fatal(err)
	}
	return res.Rendered
}

func TestRenderUsesRealmLinkifiersInOrder(t *testing.T) {
	r, _ := newTestRealm(t)
	// The seeded zulip-(?P<repo>...)#id linkifier.
	got := renderAs(t, r, idHamlet, "see zulip-mobile#1234")
	if !strings.Contains(got, `href="https://github.com/zulip/zulip-mobile/pull/1234"`) {
		t.Fatalf("seeded linkifier: %s", got)
	}
	id, err := r.As(idIago).AddLinkifier(bg, linkifier.Spec{Pattern: `TICKET-(?P<id>[0-9]+)`, URLTemplate: "https://tickets.example/{id}"})
	if err != nil {
		t.Fatal(err)
	}
	if got := renderAs(t, r, idHamlet, "TICKET-42"); !strings.Contains(got, `href="https://tickets.example/42"`) {
		t.Fatalf("new linkifier: %s", got)
	}
	// Order decides overlaps: a second pattern on the same text loses
	// until it is moved first.
	id2, _ := r.As(idIago).AddLinkifier(bg, linkifier.Spec{Pattern: `TICKET-(?P<n>[0-9]+)`, URLTemplate: "https://other.example/{n}"})
	if got := renderAs(t, r, idHamlet, "TICKET-42"); !strings.Contains(got, "tickets.example") {
		t.Fatalf("first linkifier should win: %s", got)
	}
	if err := r.As(idIago).ReorderLinkifiers(bg, []int{id2, id, 1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if got := renderAs(t, r, idHamlet, "TICKET-42"); !strings.Contains(got, "other.example") {
		t.Fatalf("reordered linkifier should win: %s", got)
	}
}

func TestRenderRealmEmojiAndDeactivatedGroups(t *testing.T) {
	r, _ := newTestRealm(t)
	if got := renderAs(t, r, idHamlet, ":green_tick:"); !strings.Contains(got, `src="/user_avatars/2/emoji/images/1.png"`) {
		t.Fatalf("realm emoji: %s", got)
	}
	g, _ := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "crew", Members: []int{idOthello}})
	res, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "t", "hi @*crew*")
	if um, _ := r.messages.store.Copy(idOthello, res.ID); !strings.Contains(strings.Join(um.Flags.Names(), ","), "mentioned") {
		t.Fatalf("an active group's mention flags its members: %v", um.Flags.Names())
	}
	if err := r.As(idIago).DeactivateUserGroup(bg, g); err != nil {
		t.Fatal(err)
	}
	// As in Zulip, a deactivated group's mention renders silent and
	// notifies nobody.
	got := renderAs(t, r, idHamlet, "hi @*crew*")
	if !strings.Contains(got, `class="user-group-mention silent"`) {
		t.Fatalf("a deactivated group's mention is silent: %s", got)
	}
	res, _ = r.As(idHamlet).SendChannelMessage(bg, "Denmark", "t", "again @*crew*")
	if um, _ := r.messages.store.Copy(idOthello, res.ID); strings.Contains(strings.Join(um.Flags.Names(), ","), "mentioned") {
		t.Fatalf("a deactivated group's mention flagged %v", um.Flags.Names())
	}
}

// BenchmarkRenderLinkifiers renders one message through 100 linkifiers,
// next to the same message with none.
func BenchmarkRenderLinkifiers(b *testing.B) {
	content := "Fixed in PROJ7-1234, see also zulip/zulip#20000 and the notes in the wiki page for release 11; " +
		"nothing else of note in this message, which is of a typical length for a chat message."
	for _, n := range []int{0, 100} {
		b.Run(fmt.Sprintf("linkifiers=%d", n), func(b *testing.B) {
			r, _ := newTestRealm(b)
			r.mu.Lock()
			r.linkifiers.list = nil
			r.mu.Unlock()
			for i := 0; i < n; i++ {
				if _, err := r.As(idIago).AddLinkifier(bg, linkifier.Spec{Pattern: fmt.Sprintf(`PROJ%d-(?P<id>[0-9]+)`, i),
					URLTemplate: fmt.Sprintf("https://issues.example/%d/{id}", i)}); err != nil {
					b.Fatal(err)
				}
			}
			a := r.As(idHamlet)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := a.RenderMessage(bg, content); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
