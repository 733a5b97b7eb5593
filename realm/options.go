package realm

import (
	"strings"
	"time"

	"github.com/minizulip/minizulip/realm/clock"
	"github.com/minizulip/minizulip/upload"
)

// Seed chooses what a new realm starts with.
type Seed int

const (
	// SeedDev seeds the realm as a Zulip development server has it:
	// iago, desdemona, hamlet… at @zulip.com, bots, channels, groups.
	SeedDev Seed = iota
	// SeedEmpty seeds only the system groups and the system bots.
	SeedEmpty
)

// Default version facts advertised by the server.
const (
	DefaultFeatureLevel = 496
	// DefaultMergeBase is the Zulip version the fake follows, its
	// zulip_merge_base.
	DefaultMergeBase = "12.0-dev"
	// DefaultVersion, the zulip_version, says what answers, in the
	// "version+build" shape of Zulip's own dev servers ("12.0-dev+git").
	DefaultVersion = DefaultMergeBase + versionSuffix
	DefaultURL     = "http://localhost:9991"
)

// Options configure a Realm. Build them with the With… functions.
type Options struct {
	Clock        clock.Clock
	Seed         Seed
	URL          string
	FeatureLevel int
	Version      string
	Limits       Limits
	// APIKeys fixes the API keys of seeded users, by email (case-insensitive).
	// Users not listed get a random key.
	APIKeys map[string]string
	// APIKeySeed, when set, derives every other user's API key from it and
	// the user's email, so that keys are the same on every run.
	APIKeySeed string
	// Settings, when set, adjusts the realm settings after seeding.
	Settings func(*Settings)
	// HeartbeatInterval is how long a GET /events waits before answering
	// with a heartbeat; 0 means Zulip's 45-55 s.
	HeartbeatInterval time.Duration
	// AccountManagers are granted can_create_users and
	// can_change_user_emails, by email (case-insensitive).
	AccountManagers []string
	// MaxQueueEvents bounds the unacknowledged events of one queue; a queue
	// that overflows is dropped (its client re-registers).
	MaxQueueEvents int
	// MaxQueuesPerUser caps one user's live event queues; registering one
	// more drops their least recently polled queue. 0 means no cap.
	MaxQueuesPerUser int
	// SeedPresence gives the dev realm's humans a presence, active at the
	// realm's creation, as a Zulip development server has (WithSeededPresence).
	SeedPresence bool
	// SeedMessages is how many messages the dev realm's humans have sent
	// when the realm is created (WithSeededMessages).
	SeedMessages int
	// UploadStore keeps uploaded files; nil means in memory
	// (WithUploadStore).
	UploadStore upload.Store
	// UploadMemoryLimit bounds the bytes the memory upload store holds: 0
	// means DefaultUploadMemoryLimit, a negative value no limit
	// (WithUploadMemoryLimit). It does not apply to an UploadStore.
	UploadMemoryLimit int64
	// MaxUnfinishedUploads caps one user's unfinished resumable uploads:
	// 0 means DefaultMaxUnfinishedUploads, a negative value no cap
	// (WithMaxUnfinishedUploads).
	MaxUnfinishedUploads int
	// ThumbnailDelay is how long after an upload its image thumbnails are
	// made; until then messages show Zulip's loading placeholder
	// (WithThumbnailDelay). 0 makes them with the upload.
	ThumbnailDelay time.Duration
	// ThumbnailCacheBytes bounds the bytes of thumbnails kept: 0 means
	// upload.DefaultThumbnailCacheBytes (WithThumbnailCacheBytes).
	ThumbnailCacheBytes int64
	// CallProviders are the video-call providers configured
	// (WithCallProvider).
	CallProviders []CallProvider
	// OutgoingWebhookCaller posts to outgoing-webhook bots' services; nil
	// means no service is called (WithOutgoingWebhookCaller).
	OutgoingWebhookCaller ServiceCaller
	// Owner, when its Email is set, is the owner an empty realm is seeded
	// with (WithOwner).
	Owner SeededOwner
	// PlanType is the plan the realm starts on; 0 means self-hosted
	// (WithPlanType, plan_type.go).
	PlanType PlanType

	// data are Open's options (durable.go).
	data dataOptions
}

// Option is one configuration step for New.
type Option func(*Options)

// WithClock makes the realm read time from c.
func WithClock(c clock.Clock) Option { return func(o *Options) { o.Clock = c } }

// WithSeed chooses the initial data.
func WithSeed(s Seed) Option { return func(o *Options) { o.Seed = s } }

// WithURL sets the realm URL (realm_uri) the server reports.
func WithURL(url string) Option { return func(o *Options) { o.URL = url } }

// WithFeatureLevel sets the advertised zulip_feature_level and
// zulip_version; an empty version is the one of the release the level
// belongs to (VersionForLevel).
func WithFeatureLevel(level int, version string) Option {
	return func(o *Options) { o.FeatureLevel, o.Version = level, version }
}

// WithLimits replaces the size limits.
func WithLimits(l Limits) Option { return func(o *Options) { o.Limits = l } }

// WithAPIKeySeed derives every user's API key (but those WithAPIKeys
// fixes) from seed and the email, so that test suites in any language
// can hard-code credentials across runs.
func WithAPIKeySeed(seed string) Option { return func(o *Options) { o.APIKeySeed = seed } }

// WithAPIKeys fixes API keys by user email.
func WithAPIKeys(keys map[string]string) Option { return func(o *Options) { o.APIKeys = keys } }

// WithSettings adjusts the realm settings after seeding.
func WithSettings(fn func(*Settings)) Option { return func(o *Options) { o.Settings = fn } }

// WithHeartbeat sets the long-poll heartbeat interval.
func WithHeartbeat(d time.Duration) Option { return func(o *Options) { o.HeartbeatInterval = d } }

// WithAccountManagers grants can_create_users and can_change_user_emails
// to the users with these emails (delivery or API addresses), as a Zulip
// server's management command does; unknown emails are skipped (the dev
// realm grants both to iago already).
func WithAccountManagers(emails ...string) Option {
	return func(o *Options) { o.AccountManagers = append(o.AccountManagers, emails...) }
}

// WithMaxQueueEvents bounds the unacknowledged events per queue.
func WithMaxQueueEvents(n int) Option { return func(o *Options) { o.MaxQueueEvents = n } }

// WithMaxQueuesPerUser caps the live event queues of one user (0: no cap).
func WithMaxQueuesPerUser(n int) Option { return func(o *Options) { o.MaxQueuesPerUser = n } }

// WithSeededPresence gives every human of the dev realm a presence, active
// when the realm is created, as Zulip's development database does; the
// standalone server turns it on, so client suites listing presences find
// them filled. A realm made by Load has the document's presence instead.
func WithSeededPresence() Option { return func(o *Options) { o.SeedPresence = true } }

// WithSeededMessages makes the dev realm start with n messages, as a Zulip
// development server's database does: conversations in the channels and
// direct messages among the humans, some with reactions, all read. The
// same n always gives the same messages. The standalone server seeds 100;
// clients that crash on an empty message list need some.
func WithSeededMessages(n int) Option { return func(o *Options) { o.SeedMessages = n } }

// WithOutgoingWebhookCaller makes the realm post to outgoing-webhook
// bots' services through c, such as httpapi.NewServiceCaller's net/http
// client (the standalone server and httpapi's TestServer use it). A realm
// without one calls no service.
func WithOutgoingWebhookCaller(c ServiceCaller) Option {
	return func(o *Options) { o.OutgoingWebhookCaller = c }
}

// SeededOwner is the account WithOwner seeds.
type SeededOwner struct{ Email, FullName string }

// WithOwner seeds an empty realm (SeedEmpty) with one human of role
// owner, as the standalone server's -seed empty has: created with the
// realm, so Reset keeps them and their API key. The dev seed has owners
// already and ignores it, as Load does (the document says who is there).
func WithOwner(email, fullName string) Option {
	return func(o *Options) { o.Owner = SeededOwner{Email: email, FullName: fullName} }
}

// versionSuffix ends the default zulip_version.
const versionSuffix = "+minizulip"

// mergeBase is the zulip_merge_base of a zulip_version: the upstream
// version, without the fake's own suffix.
func mergeBase(version string) string { return strings.TrimSuffix(version, versionSuffix) }
