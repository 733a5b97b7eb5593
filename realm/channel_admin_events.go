package realm

import "slices"

// StreamDeleteEvent tells users a channel is gone from their view.
type StreamDeleteEvent struct {
	Op      string `json:"op"`
	Streams []any  `json:"streams"`
	// StreamIDs is sent from feature level 343.
	StreamIDs []int `json:"stream_ids,omitempty"`
}

// streamRef is a deleted channel in a stream delete event.
type streamRef struct {
	StreamID int `json:"stream_id"`
}

// emitStreamUpdate sends a stream update of ch to those who can see it;
// ev's Name defaults to the channel's name.
func (r *Realm) emitStreamUpdate(ch *storedChannel, ev StreamUpdateEvent) {
	ev.Op, ev.StreamID = "update", ch.ID
	if ev.Name == "" {
		ev.Name = ch.Name
	}
	r.emit("stream", ev, r.metadataAudience(ch)...)
}

// streamDelete is the stream delete event for ch at the realm's level.
func (r *Realm) streamDelete(ch *storedChannel) StreamDeleteEvent {
	if r.has(changeStreamDeleteIDs) {
		return StreamDeleteEvent{Op: "delete", Streams: []any{streamRef{ch.ID}}, StreamIDs: []int{ch.ID}}
	}
	return StreamDeleteEvent{Op: "delete", Streams: []any{r.streamView(ch)}}
}

// emitPrivacyChange announces new privacy settings: an update of each
// changed setting to those who saw the channel before and still do, the
// channel itself to those who now see it, a delete to those who no
// longer do.
func (r *Realm) emitPrivacyChange(ch *storedChannel, p *channelPlan, before []int) {
	after := r.metadataAudience(ch)
	var kept, gained, lost []int
	for _, id := range after {
		if slices.Contains(before, id) {
			kept = append(kept, id)
		} else {
			gained = append(gained, id)
		}
	}
	for _, id := range before {
		if !slices.Contains(after, id) {
			lost = append(lost, id)
		}
	}
	send := func(ev StreamUpdateEvent) {
		ev.Op, ev.StreamID, ev.Name = "update", ch.ID, ch.Name
		r.emit("stream", ev, kept...)
	}
	if ch.InviteOnly != p.oldPrivate {
		history, web := ch.HistoryPublicToSubscribers, ch.IsWebPublic
		send(StreamUpdateEvent{Property: "invite_only", Value: ch.InviteOnly, HistoryPublicToSubscribers: &history, IsWebPublic: &web})
	}
	if ch.HistoryPublicToSubscribers != p.oldHistory {
		send(StreamUpdateEvent{Property: "history_public_to_subscribers", Value: ch.HistoryPublicToSubscribers})
	}
	if ch.IsWebPublic != p.oldWeb {
		send(StreamUpdateEvent{Property: "is_web_public", Value: ch.IsWebPublic})
	}
	if len(gained) > 0 {
		r.emit("stream", StreamCreateEvent{Op: "create", Streams: []Stream{r.streamView(ch)}}, gained...)
	}
	if len(lost) > 0 {
		r.emit("stream", r.streamDelete(ch), lost...)
	}
}

// setArchived archives or unarchives ch and tells those who can see it:
// from level 378 clients with the archived_channels capability get an
// update of is_archived, the others a delete (archive) or the channel
// (unarchive); below it everyone gets the delete or the channel.
func (r *Realm) setArchived(ch *storedChannel, archived bool) {
	ch.IsArchived = archived
	audience := r.metadataAudience(ch)
	aware := func(q *Queue) bool {
		return r.has(changeArchivedChannelEvents) && q.Config().opts.Capabilities.ArchivedChannels
	}
	update := StreamUpdateEvent{Op: "update", StreamID: ch.ID, Name: ch.Name, Property: "is_archived", Value: archived}
	r.emitChange(&change{typ: "stream", payload: update, filter: aware}, audience)
	var legacy EventPayload = r.streamDelete(ch)
	if !archived {
		legacy = StreamCreateEvent{Op: "create", Streams: []Stream{r.streamView(ch)}}
	}
	r.emitChange(&change{typ: "stream", payload: legacy, filter: func(q *Queue) bool { return !aware(q) }}, audience)
}
