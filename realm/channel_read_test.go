package realm

import (
	"regexp"
	"testing"
)

func TestChannelEmailAddressShape(t *testing.T) {
	for _, c := range []struct{ name, pattern string }{
		{"Denmark", `^denmark\.[0-9a-f]{32}\.show-sender@zulipdev\.com$`},
		{"core team!", `^[0-9a-f]{32}\.show-sender@zulipdev\.com$`}, // the slug would lose its trailing hyphen
		{"a  b--c", `^a-b-c\.[0-9a-f]{32}\.show-sender@`},
		{"ビデオゲーム", `^[0-9a-f]{32}\.show-sender@`},
		{"snake_case", `^snake_case\.[0-9a-f]{32}\.`},
	} {
		got := channelEmailAddress(&storedChannel{ID: 3, Name: c.name}, 1)
		if !regexp.MustCompile(c.pattern).MatchString(got) {
			t.Errorf("%q: address %q does not match %s", c.name, got, c.pattern)
		}
	}
	a, b := channelEmailAddress(&storedChannel{ID: 3, Name: "x"}, 1), channelEmailAddress(&storedChannel{ID: 3, Name: "x"}, 2)
	if a == b || a != channelEmailAddress(&storedChannel{ID: 3, Name: "x"}, 1) {
		t.Fatalf("addresses must be stable per sender and differ between senders: %q %q", a, b)
	}
}

func TestSubscriptionStatusAndMembersAccess(t *testing.T) {
	r, _ := newTestRealm(t)
	ok, err := r.As(idCordelia).IsSubscribed(bg, idOthello, 2)
	if err != nil || !ok {
		t.Fatalf("othello in Denmark: %v %v", ok, err)
	}
	_, err = r.As(idCordelia).IsSubscribed(bg, idHamlet, 6)
	wantCode(t, err, CodeBadRequest, "Invalid channel ID")
	_, err = r.As(idCordelia).ChannelSubscribers(bg, 6)
	wantCode(t, err, CodeBadRequest, "Invalid channel ID")
	ids, err := r.As(idIago).ChannelSubscribers(bg, 6)
	if err != nil || len(ids) != 3 {
		t.Fatalf("core team for an administrator: %v %v", ids, err)
	}
}
