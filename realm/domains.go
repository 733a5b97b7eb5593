package realm

import (
	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/realm/internal/store"
	"github.com/minizulip/minizulip/user"
)

// tables are the realm's state: everything a snapshot, a fork or a
// fixture holds. The rest of Realm is machinery.
type tables struct {
	settings     Settings
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
	// them.
	scheduled       map[int]*scheduledItem
	nextScheduledID int

	mutedUsers map[int][]MutedUser  // each user's muted users, in muting order
	alertWords map[int][]string     // each user's alert words, in the order added
	storage    map[int]user.Storage // each user's key-value storage (bot_storage.go)

	// userTopics holds each user's visibility policies by topic.
	userTopics map[int]map[topicRef]*UserTopic

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
}
