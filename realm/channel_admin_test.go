package realm

import (
	"testing"
)

func TestUpdateChannelRenameAndRefusals(t *testing.T) {
	r, _ := newTestRealm(t)
	newName := "Danmark"
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: 2, NewName: &newName}); err != nil {
		t.Fatal(err)
	}
	if id, err := r.As(idCordelia).ChannelID(bg, "danmark"); err != nil || id != 2 {
		t.Fatalf("lookup by the new name: %d %v", id, err)
	}
	if _, err := r.As(idCordelia).ChannelID(bg, "Denmark"); err == nil {
		t.Fatal("the old name still finds the channel")
	}
	// A case-only rename keeps the channel findable.
	lower := "danmark"
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: 2, NewName: &lower}); err != nil {
		t.Fatal(err)
	}
	if st, _ := r.As(idIago).Channel(bg, 2); st.Name != "danmark" {
		t.Fatalf("name %q", st.Name)
	}
	// A refused update changes nothing, not even the parts checked first.
	desc, taken := "new description", "Verona"
	err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: 2, Description: &desc, NewName: &taken})
	wantCode(t, err, CodeBadRequest, "Channel name 'Verona' is already taken.")
	if st, _ := r.As(idIago).Channel(bg, 2); st.Description != "A Scandinavian country" {
		t.Fatalf("description changed by a refused update: %q", st.Description)
	}
	// Guests never administer, even when named in the setting.
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: 1, GroupSettings: map[string]GroupSettingChange{
		"can_administer_channel_group": {New: GroupSetting{DirectMembers: []int{idPolonius, idHamlet}}}}}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, r.As(idPolonius).UpdateChannel(bg, ChannelUpdate{ChannelID: 1, Description: &desc}), CodeBadRequest,
		"You do not have permission to administer this channel.")
	if err := r.As(idHamlet).UpdateChannel(bg, ChannelUpdate{ChannelID: 1, Description: &desc}); err != nil {
		t.Fatalf("hamlet is in can_administer_channel_group: %v", err)
	}
}

func TestArchiveChannelEventsByLevel(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(300, "10.0-dev"))
	aware := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"stream"}, Capabilities: ClientCapabilities{ArchivedChannels: true}})
	if err := r.As(idIago).ArchiveChannel(bg, 2); err != nil {
		t.Fatal(err)
	}
	evs := pending(t, r, idOthello, aware, -1)
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	j := eventJSON(t, evs[0])
	// Below level 343 the delete carries whole channel objects and no
	// stream_ids; below 378 even archived_channels clients get it.
	if j["op"] != "delete" || j["stream_ids"] != nil || j["streams"].([]any)[0].(map[string]any)["name"] != "Denmark" {
		t.Fatalf("level 300 archive event %v", j)
	}
	if _, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "t", "x"); err == nil {
		t.Fatal("sent to an archived channel")
	}
}
