// Package realm is the engine of minizulip: one Realm holds all the state
// of a Zulip organization (users, channels, subscriptions, groups, messages)
// behind one lock, and exposes every operation as a typed Go method called
// on behalf of an acting user (Realm.As returns an Actor).
//
// Every mutation validates everything first and only then applies, so a
// rejected call changes nothing, and emits its events at the end. Errors
// are *Error values with Zulip's code, message and HTTP status.
//
// Where things are: the operations and their permission checks are the
// files of this package, one API area each (send.go, fetch.go,
// subscriptions.go, user_groups.go, register.go, …). Pure rules live in
// the domain packages (topic, user, group, message, linkifier). The
// machinery has rooms of its own: realm/internal/store holds the message
// indexes and each user's message flags, realm/internal/eventq the event
// queues and long polls. The lock discipline and lock order are written
// beside the four lock helpers in actor.go; time comes only from the
// realm's Clock (WithClock, NewManualClock).
package realm

import (
	"sync"
	"time"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/realm/internal/store"
	"github.com/minizulip/minizulip/user"
)

// Realm is one in-memory Zulip organization. It is safe for concurrent use.
type Realm struct {
	mu realmLock
	// sendLock orders sends' commits against readers, under mu's read
	// lock (actor.go).
	sendLock realmLock
	// generation counts the writes under mu other than sends' commits
	// (actor.go): a send prepared under the read lock is committed only if
	// it has not moved.
	generation uint64
	// writing is true while a write holds mu: derived caches are not
	// to be used then (derived.go).
	writing bool
	// derivedCache caches values derived from the state of the current
	// generation.
	derivedCache derivedCache
	// sendPrepared, when set (by tests), runs between a send's
	// preparation and its commit, outside the lock.
	sendPrepared func()

	opts      Options
	clock     Clock
	settings  Settings
	createdAt time.Time
	renderer  *markdown.Renderer

	users        map[int]*user.User
	usersByEmail map[string]*user.User // normalized delivery and API emails
	nextUserID   int

	// fakeEmailDomain ends the API addresses that stand in for hidden ones.
	fakeEmailDomain string

	channels       map[int]*storedChannel
	channelsByName map[string]*storedChannel // lower-cased names
	nextChannelID  int
	// subs maps channel ID to the subscriptions of that channel by user ID.
	subs map[int]map[int]*storedSubscription

	groups      map[int]*group.Group
	groupByName map[string]*group.Group
	nextGroupID int

	nextRecipientID int
	// personalRecipient is each user's own recipient id (Zulip's Recipient
	// of type personal), used as recipient_id of 1:1 direct messages.
	personalRecipient map[int]int
	conversations     map[string]*conversation

	messages      *store.Store
	nextMessageID int64
	// nextSubmessageID is the last submessage ID given (submessages.go).
	nextSubmessageID int64

	events *eventHub

	profileFields []CustomProfileField // custom profile fields, by order
	// nextProfileFieldID numbers new fields; IDs are never reused.
	nextProfileFieldID int

	linkifiers      []*linkifier.Linkifier // in the order they apply
	nextLinkifierID int

	realmEmoji []*storedEmoji // custom emoji, deactivated ones included, by ID

	snippets map[int][]*SavedSnippet // each user's saved snippets
	// settingsDefaults are the personal settings new users start with
	// (an EmailAddressVisibility of 0 follows the realm's setting).
	settingsDefaults user.Settings
	// playgrounds are the realm's code playgrounds, by ID.
	playgrounds      []RealmPlayground
	nextPlaygroundID int
	// exports are the data exports requested (realm_export.go).
	exports exportState
	// channelFolders are the realm's channel folders, archived ones
	// included, by ID; IDs are never reused.
	channelFolders      []*storedFolder
	nextChannelFolderID int
	// navigationViews are each user's navigation views, in the order added.
	navigationViews map[int][]*NavigationView
	nextSnippetID   int

	drafts      map[int][]*storedDraft // each user's drafts, in creation order
	nextDraftID int

	// scheduled holds the scheduled messages and reminders not yet
	// delivered (failed ones included), by ID; nextScheduledID numbers
	// them. delivery is the clock timer of the next delivery, not state.
	scheduled       map[int]*scheduledItem
	nextScheduledID int
	delivery        deliveryTimer

	mutedUsers map[int][]MutedUser  // each user's muted users, in muting order
	alertWords map[int][]string     // each user's alert words, in the order added
	storage    map[int]user.Storage // each user's key-value storage (bot_storage.go)

	// userTopics holds each user's visibility policies by topic.
	userTopics map[int]map[topicRef]*UserTopic

	// clockMu serializes moves of the clock (AdvanceClock, SetClock), so
	// the no-going-back check holds.
	clockMu  sync.Mutex
	statuses map[int]*storedStatus // each user's status, once set
	// presence holds each user's presence, once reported; presenceUpdates
	// counts the changes to it (the last_update_id of the API).
	presence        map[int]*presenceRecord
	presenceUpdates int
	// mail is what the realm would have emailed, and the email changes
	// waiting for confirmation.
	mail  mailState
	files uploadState // uploaded files, attachments, resumable uploads
	calls callState   // video-call providers and users' tokens
	// invites are the email invitations and reusable invitation links.
	invites inviteState
	// domains are the realm's email domains (realm_domains.go).
	domains domainState
	// push holds the mobile push devices and the notifications recorded
	// for them (push_devices.go).
	push pushState

	// initial is the state New created, for Reset; snapshots counts the
	// snapshots taken, to number them.
	initial   *Snapshot
	snapshots int

	// serviceCalls counts the outgoing-webhook calls under way
	// (outgoing_webhooks.go), for WaitForOutgoingWebhooks; not state.
	serviceCalls callCounter
}

// conversation is one direct-message conversation: a set of users.
type conversation struct {
	id          int
	userIDs     []int // sorted, includes everyone
	recipientID int   // group conversations' own recipient; 0 for 1:1 and self
}

// New creates a realm. Without options it is the Zulip dev realm on the
// system clock, advertising feature level 496.
func New(opts ...Option) *Realm {
	o := Options{
		Clock:            SystemClock,
		URL:              DefaultURL,
		FeatureLevel:     DefaultFeatureLevel,
		Version:          DefaultVersion,
		Limits:           DefaultLimits(),
		MaxQueueEvents:   DefaultMaxQueueEvents,
		MaxQueuesPerUser: DefaultMaxQueuesPerUser,
	}
	for _, opt := range opts {
		opt(&o)
	}
	r := &Realm{
		opts:                o,
		clock:               o.Clock,
		renderer:            markdown.New(markdown.WithRealmURL(o.URL)),
		users:               map[int]*user.User{},
		fakeEmailDomain:     user.FakeEmailDomainFor(urlHost(o.URL)),
		usersByEmail:        map[string]*user.User{},
		nextUserID:          1,
		channels:            map[int]*storedChannel{},
		channelsByName:      map[string]*storedChannel{},
		nextChannelID:       1,
		subs:                map[int]map[int]*storedSubscription{},
		groups:              map[int]*group.Group{},
		groupByName:         map[string]*group.Group{},
		nextGroupID:         1,
		nextRecipientID:     1,
		personalRecipient:   map[int]int{},
		conversations:       map[string]*conversation{},
		messages:            store.New(),
		nextMessageID:       1,
		events:              newEventHub(o.Clock, o.MaxQueueEvents, o.MaxQueuesPerUser),
		nextLinkifierID:     1,
		nextSnippetID:       1,
		nextPlaygroundID:    1,
		exports:             exportState{nextID: 1},
		nextChannelFolderID: 1,
		settingsDefaults:    user.DefaultSettings(),
	}
	r.createdAt = r.clock.Now()
	r.files.init(o.uploadStore())
	r.calls.init(o.CallProviders)
	r.seed(o.Seed)
	if o.Settings != nil {
		o.Settings(&r.settings)
	}
	r.applyAccountManagers()
	if o.Seed == SeedDev && o.SeedMessages > 0 {
		r.seedMessages(o.SeedMessages)
	}
	r.initial = r.takeSnapshot()
	r.initial.id, r.snapshots = 0, 0
	return r
}

// Now is the realm clock's current time.
func (r *Realm) Now() time.Time { return r.clock.Now() }

// FeatureLevel is the advertised zulip_feature_level.
func (r *Realm) FeatureLevel() int { return r.opts.FeatureLevel }

// Version is the advertised zulip_version.
func (r *Realm) Version() string { return r.opts.Version }

// URL is the realm's URL (realm_uri).
func (r *Realm) URL() string { return r.opts.URL }

// Limits are the realm's size limits.
func (r *Realm) Limits() Limits { return r.opts.Limits }

// CreatedAt is when the realm was created, by its clock.
func (r *Realm) CreatedAt() time.Time { return r.createdAt }

// Settings returns a copy of the realm settings.
func (r *Realm) Settings() Settings {
	var s Settings
	_ = r.view(func() error {
		s = r.settings
		return nil
	})
	return s
}

// UpdateSettings changes realm settings directly, for tests and embedders.
//
// Clients are told what changed with a realm update_dict event.
func (r *Realm) UpdateSettings(fn func(*Settings)) {
	_ = r.update(func() error {
		before := r.settings.apiValues()
		fn(&r.settings)
		r.emitSettingsChange(before)
		return nil
	})
}

func (r *Realm) allocRecipient() int {
	id := r.nextRecipientID
	r.nextRecipientID++
	return id
}

func (r *Realm) lookupGroup(id int) *group.Group { return r.groups[id] }

// inGroup reports whether the user belongs to the group setting's group,
// recursively through subgroups.
func (r *Realm) inGroup(groupID, userID int) bool {
	g := r.groups[groupID]
	if g == nil || g.Deactivated {
		return false
	}
	if members, ok := r.groupMemberSet(g); ok {
		_, in := members[userID]
		return in
	}
	return group.HasMember(g, userID, r.lookupGroup)
}
