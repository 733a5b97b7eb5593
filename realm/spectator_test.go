package realm

import (
	"errors"
	"testing"
)

// A spectator's reads are scoped by the engine's view, not by the
// request: whatever the narrow (a sender, a search, message IDs), only
// the messages of web-public channels that Zulip's
// get_web_public_streams_queryset admits leave the engine, and an
// archived web-public channel's messages stop leaving it.
func TestSpectatorViewIsWebPublicChannelsOnly(t *testing.T) {
	r, _ := newTestRealm(t)
	rome, err := r.As(idIago).SendChannelMessage(bg, "Rome", "t", "needle in Rome")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "t", "needle in Denmark"); err != nil {
		t.Fatal(err)
	}
	core, err := r.As(idIago).SendChannelMessage(bg, "core team", "t", "needle in core")
	if err != nil {
		t.Fatal(err)
	}
	s := r.Spectator("")
	for _, raw := range []string{
		`[["channels","web-public"]]`,
		`[["channels","web-public"],["sender","iago@zulip.com"]]`,
		`[["channels","web-public"],["search","needle"]]`,
		`[["channels","web-public"],["topic","t"]]`,
	} {
		res, err := s.Messages(bg, FetchRequest{Narrow: narrow(t, raw), Anchor: Anchor{ID: AnchorNewest}, NumBefore: 50, IncludeAnchor: true})
		if err != nil || !eqIDs(ids(res), []int64{rome.ID}) {
			t.Errorf("%s: %v %v, want only %d", raw, ids(res), err, rome.ID)
		}
	}
	res, err := s.Messages(bg, FetchRequest{Narrow: narrow(t, `[["channels","web-public"]]`), NoAnchor: true, MessageIDs: []int64{rome.ID, core.ID}})
	if err != nil || !eqIDs(ids(res), []int64{rome.ID}) {
		t.Errorf("message_ids: %v %v", ids(res), err)
	}
	if _, _, err := s.Message(bg, core.ID, ViewOptions{}); err == nil {
		t.Errorf("a spectator read a private message")
	}
	romeID, _ := r.As(idIago).ChannelID(bg, "Rome")
	if err := r.As(idDesdemona).ArchiveChannel(bg, romeID); err != nil {
		t.Fatal(err)
	}
	// No web-public channel left: the door closes (Zulip's
	// allow_web_public_streams_access), and so does the view.
	_, err = s.Messages(bg, FetchRequest{Narrow: narrow(t, `[["channels","web-public"]]`), Anchor: Anchor{ID: AnchorNewest}, NumBefore: 5})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeUnauthorized {
		t.Errorf("after archiving Rome: %v", err)
	}
	if r.spectatorChannel(r.channels.byID[romeID]) {
		t.Errorf("an archived channel is still shown to spectators")
	}
}
