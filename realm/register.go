package realm

import (
	"context"
	"slices"
	"time"

	"github.com/minizulip/minizulip/user"
)

// RegisterRequest is POST /register: the queue to open and which state to
// fetch with it.
type RegisterRequest struct {
	Queue QueueOptions
	// FetchEventTypes chooses the state sections; nil means the same as
	// Queue.EventTypes (and nil there means every section).
	FetchEventTypes    []string
	IncludeSubscribers bool
	// PartialSubscribers with IncludeSubscribers asks for partial lists
	// of large channels (include_subscribers "partial", feature level
	// 412).
	PartialSubscribers bool
	// PresenceHistoryLimitDays bounds the age of the presence fetched
	// (feature level 288); nil means 14 days.
	PresenceHistoryLimitDays *int
}

// RegisterResult is the answer of POST /register: the queue, the version
// keys, and one state section per fetch_event_types entry asked for. A
// section not fetched is nil, and its keys are absent from the JSON.
type RegisterResult struct {
	QueueID           string `json:"queue_id"`
	LastEventID       int    `json:"last_event_id"`
	ZulipVersion      string `json:"zulip_version"`
	ZulipFeatureLevel int    `json:"zulip_feature_level"`
	ZulipMergeBase    string `json:"zulip_merge_base"`
	// IdleQueueTimeoutSecs is how long the queue lives without a poll
	// (feature level 481 on; absent below).
	IdleQueueTimeoutSecs *int `json:"idle_queue_timeout_secs,omitempty"`

	*AlertWordsState
	*ChannelFoldersState
	*CustomProfileFieldsState
	*DraftsState
	*MessageState
	*MutedTopicsState
	*MutedUsersState
	*PresenceState
	*RealmState
	*RealmEmojiState
	*RealmFiltersState
	*RealmLinkifiersState
	*RealmPlaygroundsState
	*RealmDomainsState
	*RealmBotState
	*IncomingWebhookBotsState
	*RealmUserState
	*RealmUserGroupsState
	*RecentPrivateConversationsState
	*SavedSnippetsState
	*ScheduledMessagesState
	*RemindersState
	*StarredMessagesState
	*StreamState
	*SubscriptionState
	*UnreadState
	*UserSettingsState
	*LegacyDisplaySettingsState
	*LegacyNotificationSettingsState
	*UserStatusState
	*UserTopicState
	*VideoCallsState
	*DefaultStreamsState
	*NavigationViewsState
	*UserSettingsDefaultsState
	*PushDevicesState
	*RealmBillingState
	*OnboardingStepsState

	// omit are the fields newer than the realm's feature level (the
	// table's "register gate" rows), left out of the JSON.
	omit []string
}

// Wire is the value to encode as the answer: res itself when the realm's
// feature level has every field (the default level: one encoding, no
// extra pass), else a value whose JSON leaves out the fields a server of
// the level lacks. Encoding res directly keeps every field.
func (res RegisterResult) Wire() any {
	if len(res.omit) == 0 {
		return res
	}
	return registerBelowLevel(res)
}

// registerBelowLevel is a RegisterResult encoded without its omit fields.
type registerBelowLevel RegisterResult

// MarshalJSON encodes the answer without the fields newer than the level.
func (res registerBelowLevel) MarshalJSON() ([]byte, error) {
	return withoutFields(RegisterResult(res), res.omit)
}

// fetches reports whether the request asks for a state section.
func (req *RegisterRequest) fetches(name string) bool {
	types := req.FetchEventTypes
	if types == nil {
		types = req.Queue.EventTypes
	}
	return types == nil || slices.Contains(types, name)
}

// Register answers POST /register: it opens an event queue and returns the
// state it starts from: no change between the two is lost or seen twice.
func (a *Actor) Register(ctx context.Context, req RegisterRequest) (ans RegisterResult, err error) {
	r := a.r
	req.Queue.Capabilities = r.capabilitiesAtLevel(req.Queue.Capabilities)
	err = a.read(ctx, func(me *user.User) error {
		q, err := r.newQueue(me, req.Queue)
		if err != nil {
			return err
		}
		out := RegisterResult{QueueID: q.ID(), LastEventID: -1, ZulipVersion: r.opts.Version,
			ZulipFeatureLevel: r.opts.FeatureLevel, ZulipMergeBase: mergeBase(r.opts.Version)}
		if r.has(ChangeIdleQueueTimeout) {
			secs := int(queueLifespan(req.Queue) / time.Second)
			out.IdleQueueTimeoutSecs = &secs
		}
		r.registerTables(me, &req, &out)
		out.omit = r.fieldsAfterLevel("POST /register", "register gate")
		ans = out
		return nil
	})
	return ans, err
}
