package realm

// clearChannelSettingsOf turns off the realm settings that name ch, being
// archived (the moderation request channel, the new channel and signup
// announcements channels), and tells every active user, as Zulip's
// maybe_set_moderation_or_announcement_channels_none
// (zerver/actions/streams.py) does: one realm update_dict event with each
// cleared setting at -1, in Zulip's order. Below the feature level of
// moderation_request_channel_id, which came with that form, each
// announcement setting is its own update event under that level's name.
func (r *Realm) clearChannelSettingsOf(ch *storedChannel) {
	s := &r.settings
	type cleared struct {
		name   string
		legacy string // name of the update event below the level, "" for none
	}
	var done []cleared
	if s.ModerationRequestChannelID == ch.ID {
		s.ModerationRequestChannelID = 0
		done = append(done, cleared{moderationRequestChannelProperty, ""})
	}
	if s.NewStreamAnnouncementsStreamID == ch.ID {
		s.NewStreamAnnouncementsStreamID = 0
		done = append(done, cleared{newChannelAnnouncementsProperty, newChannelAnnouncements.name(r)})
	}
	if s.SignupAnnouncementsStreamID == ch.ID {
		s.SignupAnnouncementsStreamID = 0
		done = append(done, cleared{signupAnnouncementsProperty, signupAnnouncements.name(r)})
	}
	if len(done) == 0 {
		return
	}
	to := r.activeUserIDs()
	if !r.has(changeModerationRequestChannel) {
		for _, c := range done {
			if c.legacy != "" {
				r.emit("realm", RealmUpdateEvent{Op: "update", Property: c.legacy, Value: -1}, to...)
			}
		}
		return
	}
	data := map[string]any{}
	for _, c := range done {
		data[c.name] = -1
	}
	r.emit("realm", RealmUpdateDictEvent{Op: "update_dict", Property: "default", Data: data}, to...)
}
