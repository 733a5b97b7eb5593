// Package realm is the engine of minizulip: one in-memory Zulip
// organization, driven by typed Go calls.
//
// Quick start:
//
//	r := realm.New()                              // Zulip's dev realm
//	iago, _ := r.UserIDByEmail("iago@zulip.com")
//	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
//
//	// Send, as a user.
//	sent, err := r.As(iago).SendChannelMessage(ctx, "Denmark", "castle", "Hi **all**")
//
//	// Listen: a user's events in-process, from the queues GET /events serves.
//	l, _ := r.As(hamlet).Listen(ctx, realm.RegisterRequest{})
//	for ev, err := range l.Events(ctx) { … }
//
//	// Move time: every time limit follows the realm's clock.
//	r = realm.New(realm.WithClock(realm.clock.NewManual(t0)))
//	r.AdvanceClock(11 * time.Minute)
//
//	// Snapshot and go back; fork an independent copy.
//	snap := r.Snapshot()
//	r.Restore(snap)
//	other := r.Fork()
//
//	// Save and load the whole realm as a JSON fixture (package realm/fixture).
//	doc, _ := r.Dump()
//	r2, _ := realm.Load(doc)
//
// Faults (errors and delays injected into requests) are HTTP-level: see
// package httpapi and its /minizulip/ control API.
//
// Every call is made on behalf of an acting user (Realm.As returns an
// Actor) and checks that user's permissions as Zulip does. A call that
// fails changes nothing and returns an *Error with Zulip's code, message
// and HTTP status. A call whose context is done before it gets the realm
// returns the context's error, changing nothing.
//
// Where things are: each domain (users, channels, messages, drafts, …)
// keeps its state in one table type in its own file, with its operations
// beside it; domains.go lists the tables, and that list drives snapshots,
// fixtures and register. Pure rules live in the domain packages (user,
// group, message, topic, linkifier, upload); realm/internal/store holds
// the message indexes and realm/internal/eventq the event queues.
package realm

import (
	"sync"
	"time"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/realm/clock"
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
	clock     clock.Clock
	createdAt time.Time
	// startedAt is when the server last announced a restart
	// (server_restart.go); zero for none.
	startedAt time.Time
	renderer  *markdown.Renderer

	// tables are the realm's state (domains.go).
	tables

	events *eventHub
	// delivery is the clock timer of the next scheduled delivery.
	delivery deliveryTimer
	// fullMembers is the clock timer of the next full-member promotion
	// (full_members.go).
	fullMembers deliveryTimer
	// clockMu serializes moves of the clock (AdvanceClock, SetClock), so
	// the no-going-back check holds.
	clockMu sync.Mutex

	// initial is the state New created, for Reset; snapshots counts the
	// snapshots taken, to number them.
	initial   *Snapshot
	snapshots int

	// dur is the realm's data directory (durable.go); nil in memory.
	dur *durability

	// serviceCalls counts the outgoing-webhook calls under way
	// (outgoing_webhooks.go), for WaitForOutgoingWebhooks; not state.
	serviceCalls callCounter
}

// New creates a realm. Without options it is the Zulip dev realm on the
// system clock, advertising feature level 496.
func New(opts ...Option) *Realm {
	o := Options{
		Clock:            clock.System,
		URL:              DefaultURL,
		FeatureLevel:     DefaultFeatureLevel,
		Limits:           DefaultLimits(),
		MaxQueueEvents:   DefaultMaxQueueEvents,
		MaxQueuesPerUser: DefaultMaxQueuesPerUser,
	}
	for _, opt := range opts {
		opt(&o)
	}
	if o.Version == "" {
		o.Version = VersionForLevel(o.FeatureLevel)
	}
	r := &Realm{
		opts:   o,
		clock:  o.Clock,
		events: newEventHub(o.Clock, o.MaxQueueEvents, o.MaxQueuesPerUser),
		tables: tables{
			users: userTable{byID: map[int]*user.User{}, byEmail: map[string]*user.User{}, nextID: 1,
				fakeEmailDomain: user.FakeEmailDomainFor(urlHost(o.URL))},
			channels: channelTable{byID: map[int]*storedChannel{}, byName: map[string]*storedChannel{}, nextID: 1,
				subs: map[int]map[int]*storedSubscription{}},
			groups:           groupTable{byID: map[int]*group.Group{}, byName: map[string]*group.Group{}, nextID: 1},
			recipients:       recipientTable{nextID: 1, personal: map[int]int{}, conversations: map[string]*conversation{}},
			messages:         messageTable{store: store.New(), nextID: 1},
			linkifiers:       linkifierTable{nextID: 1},
			snippets:         snippetTable{nextID: 1},
			profileFields:    profileFieldTable{nextID: 1},
			playgrounds:      playgroundTable{nextID: 1},
			exports:          exportTable{nextID: 1},
			channelFolders:   folderTable{nextID: 1},
			settingsDefaults: settingsDefaultsTable{values: user.DefaultSettings()},
		},
	}
	r.renderer = markdown.New(append([]markdown.Option{markdown.WithRealmURL(o.URL)}, r.formattingOptions()...)...)
	endSeedHistory := r.beginSeedHistory(o)
	r.createdAt = r.clock.Now()
	r.files.init(o.uploadStore(), o.ThumbnailCacheBytes)
	r.calls.init(o.CallProviders)
	r.seed(o.Seed)
	if o.PlanType != 0 {
		r.settings.startPlan(o.PlanType)
	}
	if o.Settings != nil {
		o.Settings(&r.settings)
	}
	r.applyAccountManagers()
	if o.Seed == SeedDev && o.SeedMessages > 0 {
		r.seedMessages(o.SeedMessages)
	}
	endSeedHistory()
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
// Clients are told what changed with realm events, one per setting in
// Zulip's form for it (emitSettingsChange).
func (r *Realm) UpdateSettings(fn func(*Settings)) {
	_ = r.update(func() error {
		before := r.settings.apiValues()
		fn(&r.settings)
		r.emitSettingsChange(before)
		return nil
	})
}
