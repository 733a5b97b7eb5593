package realm

import (
	"context"
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// Spectator reads a realm on behalf of a logged-out visitor of its
// web-public channels, as Zulip's web app does without a session
// (zerver/views/events_register.py and zerver/views/message_fetch.py with
// an AnonymousUser). Every answer is built from the web-public channels
// only: the spectator's view, not the request, decides what leaves the
// engine. A Spectator holds nothing: no queue, no session, no state that
// a visitor could grow.
type Spectator struct {
	r *Realm
	// language is the visitor's language cookie; "" means the realm's
	// default language.
	language string
}

// Spectator returns a logged-out visitor of the realm's web-public
// channels, whose language cookie is language ("" when none).
func (r *Realm) Spectator(language string) *Spectator { return &Spectator{r: r, language: language} }

// missingAuthentication is Zulip's MissingAuthenticationError, which its
// middleware answers as json_unauthorized: 401, UNAUTHORIZED.
func missingAuthentication() *Error {
	return Unauthorized("Not logged in: API authentication or user session required")
}

// spectatorChannel reports whether c's messages may be shown to a
// spectator: Zulip's get_web_public_streams_queryset (web-public, not
// private, history public, not archived) with spectator access on.
func (r *Realm) spectatorChannel(c *storedChannel) bool {
	return c != nil && r.settings.EnableSpectatorAccess && c.IsWebPublic && !c.InviteOnly &&
		c.HistoryPublicToSubscribers && !c.IsArchived
}

// spectatorsAdmitted is Zulip's Realm.allow_web_public_streams_access:
// spectator access on and at least one web-public channel to show.
func (r *Realm) spectatorsAdmitted() bool {
	if !r.settings.EnableSpectatorAccess {
		return false
	}
	for _, c := range r.channels.byID {
		if r.spectatorChannel(c) {
			return true
		}
	}
	return false
}

// read runs fn under the realm's read lock once the realm admits
// spectators, with the spectator's stand-in user: as Zulip's
// settings_user for a spectator, a guest with ID 0 ("Anonymous User")
// that no table holds.
func (s *Spectator) read(ctx context.Context, fn func(me *user.User) error) error {
	r := s.r
	return r.view(func() error {
		if err := ctxErr(ctx); err != nil {
			return err
		}
		if !r.spectatorsAdmitted() {
			return missingAuthentication()
		}
		return fn(s.standIn())
	})
}

// standIn is the spectator's user as Zulip's fetch_initial_state_data
// makes it: a guest with ID 0, default settings in the spectator's
// language, Recent conversations as home view. The caller holds the lock.
func (s *Spectator) standIn() *user.User {
	settings := user.DefaultSettings()
	settings.DefaultLanguage = s.language
	if settings.DefaultLanguage == "" {
		settings.DefaultLanguage = s.r.settings.DefaultLanguage
	}
	settings.WebHomeView = "recent_topics"
	return &user.User{ID: spectatorID, FullName: "Anonymous User", DeliveryEmail: "username@example.com",
		Role: user.RoleGuest, AvatarSource: "G", AvatarURL: user.GravatarURL("username@example.com", 1),
		IsActive: true, Settings: settings}
}

// Register answers a logged-out POST /json/register: the state a
// spectator starts from, with no event queue (queue_id null, no
// last_event_id). client_gravatar and include_subscribers are refused.
func (s *Spectator) Register(ctx context.Context, req RegisterRequest) (ans SpectatorRegisterResult, err error) {
	if req.Queue.ClientGravatar {
		return ans, BadRequest("Invalid 'client_gravatar' parameter for anonymous request")
	}
	if req.IncludeSubscribers {
		return ans, BadRequest("Invalid 'include_subscribers' parameter for anonymous request")
	}
	r := s.r
	req.Queue.AllPublicStreams = false
	err = s.read(ctx, func(me *user.User) error {
		out := RegisterResult{ZulipVersion: r.opts.Version, ZulipFeatureLevel: r.opts.FeatureLevel,
			ZulipMergeBase: mergeBase(r.opts.Version)}
		r.registerTables(me, &req, &out)
		r.spectatorSections(me, &req, &out)
		out.omit = append(r.fieldsAfterLevel("POST /register", "register gate"), "queue_id", "last_event_id")
		ans = SpectatorRegisterResult{res: out}
		return nil
	})
	return ans, err
}

// spectatorSections replaces the sections Zulip fills otherwise for a
// spectator (fetch_initial_state_data with user_profile None): no
// streams section (include_streams is off), the web-public channels as
// subscriptions, no presences, message editing off and presence
// disabled, no onboarding steps, no custom profile fields, every user
// as format_user_row gives them to no acting user (spectatorUser), no
// personal data.
func (r *Realm) spectatorSections(me *user.User, req *RegisterRequest, out *RegisterResult) {
	out.StreamState = nil
	if out.CustomProfileFieldsState != nil {
		out.CustomProfileFields = []CustomProfileField{}
	}
	if out.SubscriptionState != nil {
		out.SubscriptionState = &SubscriptionState{Subscriptions: r.spectatorSubscriptions(),
			Unsubscribed: []SubscriptionView{}, NeverSubscribed: []NeverSubscribedView{}}
	}
	if out.PresenceState != nil {
		out.PresenceState = &PresenceState{Presences: Presences{Modern: map[string]ModernPresence{}},
			ServerTimestamp: out.PresenceState.ServerTimestamp}
	}
	if out.RealmState != nil {
		out.RealmAllowMessageEditing = false
		out.RealmPresenceDisabled = true
	}
	if out.MessageState != nil {
		out.MaxMessageID = -1
	}
	if out.OnboardingStepsState != nil { // no account to keep them for
		out.OnboardingStepsState = r.onboardingStepsOf(nil)
	}
	if out.RealmUserState != nil {
		for _, list := range [][]User{out.RealmUsers, out.RealmNonActiveUsers} {
			for i := range list {
				list[i] = spectatorUser(list[i])
			}
		}
		out.UserID, out.Email, out.DeliveryEmail, out.FullName = 0, me.DeliveryEmail, me.DeliveryEmail, me.FullName
		out.AvatarSource, out.AvatarURL, out.AvatarURLMedium = me.AvatarSource, me.AvatarURL, me.AvatarURL
	}
}

// spectatorSubscriptions lists the web-public channels as Zulip's
// get_web_public_subs does: subscriptions as a new subscriber's, with
// the assignment colors in turn, sorted by name.
func (r *Realm) spectatorSubscriptions() []SubscriptionView {
	on := true
	out := []SubscriptionView{}
	for _, c := range r.channelsByNameOrder() {
		if !r.spectatorChannel(c) {
			continue
		}
		out = append(out, SubscriptionView{Stream: r.streamView(c), Color: subscriptionColors[len(out)%len(subscriptionColors)],
			InHomeView: true, DesktopNotifications: &on, EmailNotifications: &on, PushNotifications: &on,
			AudibleNotifications: &on, WildcardMentionsNotify: &on})
	}
	return out
}

// SpectatorRegisterResult is a spectator's register answer: encode
// Wire().
type SpectatorRegisterResult struct{ res RegisterResult }

// State is the answer's sections, for Go callers.
func (s SpectatorRegisterResult) State() RegisterResult { return s.res }

// Wire is the value to encode: queue_id null, no last_event_id.
func (s SpectatorRegisterResult) Wire() any { return spectatorWire(s) }

type spectatorWire SpectatorRegisterResult

// MarshalJSON encodes the answer with queue_id null and the users
// without their timezone (SpectatorUser).
func (w spectatorWire) MarshalJSON() ([]byte, error) {
	b, err := withoutFields(w.res, w.res.omit)
	if err != nil {
		return nil, err
	}
	if st := w.res.RealmUserState; st != nil {
		if b, err = withSpectatorUsers(b, map[string][]User{
			"realm_users": st.RealmUsers, "realm_non_active_users": st.RealmNonActiveUsers}); err != nil {
			return nil, err
		}
	}
	// withoutFields ends with a newline after the closing brace.
	b = slices.Clone(b[:len(b)-1])
	if len(b) > 2 {
		return append([]byte(`{"queue_id":null,`), b[1:]...), nil
	}
	return []byte(`{"queue_id":null}`), nil
}

// spectatorNarrowOperators are the operators Zulip's
// is_spectator_compatible admits (zerver/lib/narrow.py), as the realm
// canonicalizes them.
var spectatorNarrowOperators = []string{"channel", "channels", "topic", "sender", "has", "search", "near", "id", "with"}

// spectatorNarrow checks a spectator's narrow as Zulip's
// get_messages_backend does: a positive in:home term is dropped, a
// positive channels:web-public term is required, and only the
// spectator-compatible operators are admitted; anything else is
// MISSING_AUTHENTICATION (401), since the request is then more likely a
// client whose login failed than a spectator.
func spectatorNarrow(terms []message.Term) ([]message.Term, error) {
	var out []message.Term
	webPublic := false
	for _, t := range terms {
		t.Operator = message.CanonicalOperator(t.Operator)
		if t.Operator == "in" && t.Operand == "home" && !t.Negated {
			continue
		}
		if t.Operator == "channels" && t.Operand == "web-public" && !t.Negated {
			webPublic = true
		}
		out = append(out, t)
	}
	if !webPublic {
		return nil, missingAuthentication()
	}
	for _, t := range out {
		if !slices.Contains(spectatorNarrowOperators, t.Operator) {
			return nil, missingAuthentication()
		}
	}
	return out, nil
}

// Messages answers a logged-out GET /json/messages: the messages of
// web-public channels that the narrow (which must hold
// channels:web-public) matches, all flagged read, avatars never null.
func (s *Spectator) Messages(ctx context.Context, req FetchRequest) (ans FetchResult, err error) {
	r := s.r
	if err := req.checkFetch(r.opts.Limits.MaxMessagesPerFetch); err != nil {
		return FetchResult{}, err
	}
	var msgs []*message.Message
	var d *messageDirectory
	err = s.read(ctx, func(me *user.User) error {
		terms, err := spectatorNarrow(req.Narrow)
		if err != nil {
			return err
		}
		q := &narrowQuery{spectator: true}
		for _, t := range terms {
			pred, err := r.compileTerm(me, q, t)
			if err != nil {
				return err
			}
			if t.Negated {
				inner := pred
				pred = func(m *message.Message) bool { return !inner(m) }
			}
			q.preds = append(q.preds, pred)
		}
		if req.MessageIDs != nil {
			msgs = r.selectIDs(me, q, req.MessageIDs)
			ans = FetchResult{ByMessageIDs: true}
		} else {
			a := req.Anchor
			if a.FirstUnread {
				// Everything is read for a spectator: first_unread is
				// the newest message, as Zulip's anchor falls back.
				a = Anchor{ID: AnchorNewest}
			}
			fr := r.selectRange(me, q, a, req.NumBefore, req.NumAfter, req.IncludeAnchor)
			msgs = fr.ascending()
			ans = FetchResult{Anchor: fr.anchor, FoundAnchor: fr.foundAnchor,
				FoundOldest: fr.foundOldest, FoundNewest: fr.foundNewest}
		}
		d = r.messageDirectory(nil)
		for _, m := range msgs {
			d.add(r, m)
		}
		return nil
	})
	if err != nil {
		return FetchResult{}, err
	}
	view := req.View
	view.ClientGravatar = false
	ans.Messages = make([]Message, len(msgs))
	for i, m := range msgs {
		ans.Messages[i] = d.messageView(m, message.Read, true, view)
	}
	return ans, nil
}

// Message answers a logged-out GET /json/messages/{id}: a message of a
// web-public channel (Zulip's access_web_public_message), flagged read,
// and its raw Markdown; any other is "Invalid message(s)".
func (s *Spectator) Message(ctx context.Context, id int64, o ViewOptions) (view Message, raw string, err error) {
	r := s.r
	var m *message.Message
	var d *messageDirectory
	err = s.read(ctx, func(*user.User) error {
		got, ok := r.messages.store.Message(id)
		if !ok || got.Type != message.Channel || !r.spectatorChannel(r.channels.byID[got.ChannelID]) {
			return invalidMessage()
		}
		m, d = got, r.messageDirectory(nil)
		d.add(r, m)
		return nil
	})
	if err != nil {
		return Message{}, "", err
	}
	o.ClientGravatar = false
	return d.messageView(m, message.Read, true, o), m.Content, nil
}

// ChannelTopics answers a logged-out GET /json/users/me/{stream_id}/topics:
// the topics of a web-public channel (Zulip's access_web_public_stream);
// any other channel is "Invalid channel ID".
func (s *Spectator) ChannelTopics(ctx context.Context, req ChannelTopicsRequest) (ans []ChannelTopic, err error) {
	r := s.r
	err = s.read(ctx, func(me *user.User) error {
		ch := r.channels.byID[req.ChannelID]
		if !r.spectatorChannel(ch) {
			return BadRequest("Invalid channel ID")
		}
		ans = r.channelTopics(me, ch, req.AllowEmptyTopicName)
		return nil
	})
	return ans, err
}
