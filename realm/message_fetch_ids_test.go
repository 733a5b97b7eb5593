package realm

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// GET /messages's message_ids (feature level 300): the listed messages
// the viewer may read and the narrow matches, ascending and once each,
// with the viewer's flags; unknown IDs and messages the viewer cannot
// read are left out. As in Zulip's query, a fetch without a channel
// narrow answers only messages the viewer received; a channel narrow
// whose history the viewer reads answers that history too.
func TestFetchByMessageIDs(t *testing.T) {
	r, _ := newTestRealm(t)
	all := seedFetch(t, r) // Denmark, hamlet; alpha even, beta odd
	dm, err := r.As(idOthello).SendDirectMessage(bg, []int{idIago}, "psst")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idIago).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{all[3]}, Op: "add", Flag: "starred"}); err != nil {
		t.Fatal(err)
	}
	get := func(userID int, ids []int64, raw string) FetchResult {
		t.Helper()
		req := FetchRequest{MessageIDs: ids, NoAnchor: true}
		if raw != "" {
			req.Narrow = narrow(t, raw)
		}
		res, err := r.As(userID).Messages(bg, req)
		if err != nil {
			t.Fatalf("user %d ids %v: %v", userID, ids, err)
		}
		return res
	}
	res := get(idIago, []int64{all[3], all[1], all[3], 999_999, dm.ID, -0}, "")
	if !eqIDs(ids(res), []int64{all[1], all[3], dm.ID}) || !res.ByMessageIDs || res.FoundAnchor || res.FoundOldest || res.FoundNewest {
		t.Fatalf("iago: ids %v, result %+v", ids(res), res)
	}
	if diff := cmp.Diff([][]string{{}, {"starred"}, {}}, [][]string{res.Messages[0].Flags, res.Messages[1].Flags, res.Messages[2].Flags}); diff != "" {
		t.Errorf("flags (-want +got):\n%s", diff)
	}
	if got := get(idIago, []int64{all[0], all[1], all[2]}, `[["topic","alpha"]]`); !eqIDs(ids(got), []int64{all[0], all[2]}) {
		t.Errorf("topic narrow: %v", ids(got))
	}
	if got := get(idIago, []int64{}, ""); len(got.Messages) != 0 || !got.ByMessageIDs {
		t.Errorf("empty list: %+v", got)
	}
	// Hamlet never got the direct message.
	if got := get(idHamlet, []int64{dm.ID, all[0]}, ""); !eqIDs(ids(got), []int64{all[0]}) {
		t.Errorf("hamlet: %v", ids(got))
	}
	// Cordelia is not in Denmark (public): nothing without a channel
	// narrow, its history with one, read and historical.
	if got := get(idCordelia, []int64{all[0], all[1]}, ""); len(got.Messages) != 0 {
		t.Errorf("cordelia without a narrow: %v", ids(got))
	}
	got := get(idCordelia, []int64{all[0], all[1]}, `[["channel","Denmark"]]`)
	if !eqIDs(ids(got), []int64{all[0], all[1]}) || !slices.Equal(got.Messages[0].Flags, []string{"read", "historical"}) {
		t.Errorf("cordelia in Denmark: %v %v", ids(got), got.Messages)
	}
	// A guest outside Denmark reads none of it.
	if got := get(idPolonius, []int64{all[0]}, `[["channel","Denmark"]]`); len(got.Messages) != 0 {
		t.Errorf("guest: %v", ids(got))
	}
}

// message_ids is refused beside a range, as Zulip refuses it, and bounded
// like a range; a range still needs an anchor.
func TestFetchByMessageIDsRefusals(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idIago)
	const combo = "Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor"
	for _, req := range []FetchRequest{
		{MessageIDs: []int64{1}},                                    // an anchor
		{MessageIDs: []int64{1}, Anchor: Anchor{FirstUnread: true}}, // use_first_unread_anchor
		{MessageIDs: []int64{1}, NoAnchor: true, NumBefore: 1},
		{MessageIDs: []int64{}, NoAnchor: true, NumAfter: 1},
	} {
		_, err := a.Messages(bg, req)
		e := wantCode(t, err, CodeBadRequest, combo)
		if diff := cmp.Diff(map[string]any{"parameters": combo[len("Unsupported parameter combination: "):]}, e.Extra); diff != "" {
			t.Errorf("extra (-want +got):\n%s", diff)
		}
	}
	_, err := a.Messages(bg, FetchRequest{MessageIDs: []int64{1, -3}, NoAnchor: true})
	wantCode(t, err, CodeBadRequest, "message_ids[1] is too small")
	_, err = a.Messages(bg, FetchRequest{MessageIDs: make([]int64, 5001), NoAnchor: true})
	wantCode(t, err, CodeBadRequest, "Too many messages requested (maximum 5000).")
	if _, err := a.Messages(bg, FetchRequest{MessageIDs: make([]int64, 5000), NoAnchor: true, NumBefore: 0}); err != nil {
		t.Fatalf("5000 IDs: %v", err)
	}
	_, err = a.Messages(bg, FetchRequest{NoAnchor: true, NumBefore: 1})
	wantCode(t, err, CodeBadRequest, "Missing 'anchor' argument.")
}
