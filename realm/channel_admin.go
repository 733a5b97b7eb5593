package realm

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// CreateChannelRequest is POST /channels/create: the new channel's name,
// description and settings (as subscribe's, whose Channels and
// Principals are ignored), and the users to subscribe to it, possibly
// none.
type CreateChannelRequest struct {
	Name, Description string
	Subscribers       []int
	Settings          SubscribeRequest
}

// CreateChannel creates a channel and subscribes the listed users, with
// subscribe's permission rules for creating channels. It returns the new
// channel's ID.
func (a *Actor) CreateChannel(ctx context.Context, req CreateChannelRequest) (ans int, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		name := strings.TrimSpace(req.Name)
		if c := r.channels.byName[channelKey(name)]; c != nil && name != "" {
			return &Error{Code: CodeChannelAlreadyExists, Status: statusConflict, Msg: "Channel '" + name + "' already exists"}
		}
		sub := req.Settings
		sub.Channels = []ChannelSpec{{Name: req.Name, Description: req.Description}}
		sub.Principals = Principals{IDs: req.Subscribers}
		if len(req.Subscribers) == 0 {
			sub.Principals = Principals{}
		}
		plan, err := r.planSubscribe(me, sub)
		if err != nil {
			return err
		}
		if len(req.Subscribers) == 0 {
			plan.targets = nil
		}
		r.applySubscribe(me, sub, plan)
		ans = r.channels.byName[channelKey(plan.create[0].Name)].ID
		return nil
	})
	return ans, err
}

// ChannelUpdate is PATCH /streams/{stream_id}: every non-nil field is a
// change.
type ChannelUpdate struct {
	ChannelID   int
	NewName     *string
	Description *string
	// StreamPostPolicy is the legacy stream_post_policy (1 everyone, 2
	// administrators, 3 full members, 4 moderators; is_announcement_only
	// reads as 2 or 1), which sets can_send_message_group before feature
	// level 333 and is ignored from it.
	StreamPostPolicy *int
	// IsPrivate, IsWebPublic and HistoryPublicToSubscribers change the
	// channel's privacy; history defaults to the opposite of IsPrivate.
	IsPrivate                  *bool
	IsWebPublic                *bool
	HistoryPublicToSubscribers *bool
	IsDefaultStream            *bool
	// MessageRetentionDays, when set, is the new retention: nil inside
	// for the realm default, -1 for unlimited, else days. Owners only.
	MessageRetentionDays **int
	// TopicsPolicy is "inherit", "allow_empty_topic",
	// "disable_empty_topic" or "empty_topic_only".
	TopicsPolicy *string
	// IsArchived may only be false: unarchiving (archiving is DELETE).
	IsArchived *bool
	// FolderID, when set, moves the channel to a folder of the realm
	// (*nil: none).
	FolderID **int
	// GroupSettings change channel permission settings by API name.
	GroupSettings map[string]GroupSettingChange
}

// errCannotAdminister is Zulip's refusal to a user who may see a channel
// but not administer it.
func errCannotAdminister() *Error {
	return BadRequest("You do not have permission to administer this channel.")
}

// channelToAdminister is the channel of an administration request: known
// to the caller (else "Invalid channel ID") and administered by them:
// organization administrators, and non-guests in its
// can_administer_channel_group.
func (r *Realm) channelToAdminister(me *user.User, channelID int) (*storedChannel, error) {
	ch, err := r.channelWithMetadataAccess(me, channelID)
	if err != nil {
		return nil, err
	}
	if !me.Role.IsAdmin() && (me.IsGuest() || !r.channelAllows(ch, "can_administer_channel_group", me.ID)) {
		return nil, errCannotAdminister()
	}
	return ch, nil
}

// contentAccessSettings are the channel settings only those with content
// access may change; the others (can_remove_subscribers_group,
// can_send_message_group) need metadata access only.
var contentAccessSettings = []string{
	"can_add_subscribers_group", "can_administer_channel_group", "can_create_topic_group",
	"can_delete_any_message_group", "can_delete_own_message_group", "can_move_messages_out_of_channel_group",
	"can_move_messages_within_channel_group", "can_resolve_topics_group", "can_subscribe_group",
}

// channelPlan is a validated channel update: the values to store.
type channelPlan struct {
	ch                             *storedChannel
	actor                          *user.User // who asked, named in notices
	name, description              *string
	private, webPublic, history    bool
	privacyChanged                 bool
	isDefault                      *bool
	retention                      **int
	topicsPolicy                   *string
	unarchive                      bool
	folderID                       *int // the new folder, 0 for none
	settings                       map[string]GroupSetting
	settingNames                   []string // in Zulip's order
	oldPrivate, oldWeb, oldHistory bool
}

// UpdateChannel changes a channel's name, description, privacy, default
// status, retention, topics policy, archived state and permission
// settings, with Zulip's rules; every change is checked before any is
// made. Each change is announced by a stream update event to those who
// can see the channel; a privacy change also tells users who gain or lose
// sight of it (stream create / delete).
func (a *Actor) UpdateChannel(ctx context.Context, req ChannelUpdate) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if err := r.applyLegacyPostPolicy(&req); err != nil {
			return err
		}
		p, err := r.planChannelUpdate(me, req)
		if err != nil {
			return err
		}
		r.applyChannelUpdate(p)
		return nil
	})
}

// legacyPostPolicyGroups are the system groups of stream_post_policy's
// values.
var legacyPostPolicyGroups = map[int]string{1: group.Everyone, 2: group.Administrators, 3: group.FullMembers, 4: group.Moderators}

// legacyPostPolicy is the can_send_message_group a legacy
// stream_post_policy means, before feature level 333 (Zulip 9's
// parameters); ok is false when there is none to apply.
func (r *Realm) legacyPostPolicy(policy *int) (g GroupSetting, ok bool, err error) {
	if policy == nil || r.has(ChangeStreamPostPolicyRemoved) {
		return g, false, nil
	}
	name, known := legacyPostPolicyGroups[*policy]
	if !known {
		return g, false, BadRequest("Invalid stream_post_policy")
	}
	return NamedGroupSetting(r.groups.byName[name].ID), true, nil
}

// applyLegacyPostPolicy sets an update's can_send_message_group from its
// legacy stream_post_policy; a can_send_message_group of the same
// request wins.
func (r *Realm) applyLegacyPostPolicy(req *ChannelUpdate) error {
	g, ok, err := r.legacyPostPolicy(req.StreamPostPolicy)
	if err != nil || !ok {
		return err
	}
	if _, set := req.GroupSettings["can_send_message_group"]; set {
		return nil
	}
	settings := map[string]GroupSettingChange{}
	for k, v := range req.GroupSettings {
		settings[k] = v
	}
	settings["can_send_message_group"] = GroupSettingChange{New: g}
	req.GroupSettings = settings
	return nil
}

// planChannelUpdate checks an update without changing anything.
func (r *Realm) planChannelUpdate(me *user.User, req ChannelUpdate) (*channelPlan, error) {
	ch, err := r.channelToAdminister(me, req.ChannelID)
	if err != nil {
		return nil, err
	}
	if err := r.checkLegacyAdminContentAccess(me, ch, req.onlyNameOrDescription()); err != nil {
		return nil, err
	}
	p := &channelPlan{ch: ch, actor: me, private: ch.InviteOnly, webPublic: ch.IsWebPublic, history: ch.HistoryPublicToSubscribers,
		oldPrivate: ch.InviteOnly, oldWeb: ch.IsWebPublic, oldHistory: ch.HistoryPublicToSubscribers, isDefault: req.IsDefaultStream}
	if err := r.planPrivacy(me, req, p); err != nil {
		return nil, err
	}
	if req.MessageRetentionDays != nil {
		if me.Role != user.RoleOwner {
			return nil, UnauthorizedPrincipal("Must be an organization owner")
		}
		if err := r.ensureNotOnLimitedPlan(); err != nil {
			return nil, err
		}
		p.retention = req.MessageRetentionDays
	}
	if req.Description != nil {
		if utf8.RuneCountInString(*req.Description) > r.opts.Limits.MaxStreamDescLength {
			return nil, BadRequest("description is too long (limit: %d characters)", r.opts.Limits.MaxStreamDescLength)
		}
		if err := noNull("description", *req.Description); err != nil {
			return nil, err
		}
		d := strings.ReplaceAll(*req.Description, "\n", " ")
		p.description = &d
	}
	if req.NewName != nil {
		name := strings.TrimSpace(*req.NewName)
		if name == ch.Name {
			return nil, BadRequest("Channel already has that name!")
		}
		if err := checkChannelName(name, r.opts.Limits.MaxStreamNameLength); err != nil {
			return nil, err
		}
		if other := r.channels.byName[channelKey(name)]; other != nil && other != ch {
			return nil, BadRequest("Channel name '%s' is already taken.", name)
		}
		p.name = &name
	}
	if req.TopicsPolicy != nil {
		if !r.knownTopicsPolicy(*req.TopicsPolicy) {
			return nil, BadRequest("Invalid topics_policy")
		}
		if !r.canSetTopicsPolicy(me) {
			return nil, BadRequest("Insufficient permission")
		}
		p.topicsPolicy = req.TopicsPolicy
	}
	// Below changeChannelFolders there are no folders: a server of the
	// level ignores folder_id, and no stream update says folder_id null.
	if req.FolderID != nil && r.has(changeChannelFolders) {
		p.folderID = new(int)
		if *req.FolderID != nil {
			if err := r.checkChannelFolderID(**req.FolderID); err != nil {
				return nil, err
			}
			*p.folderID = **req.FolderID
		}
	}
	if req.IsArchived != nil {
		if *req.IsArchived {
			return nil, BadRequest("Invalid parameters")
		}
		p.unarchive = ch.IsArchived
	}
	if err := r.planChannelGroupSettings(me, req, p); err != nil {
		return nil, err
	}
	return p, nil
}

// planPrivacy checks the proposed privacy settings as Zulip does.
func (r *Realm) planPrivacy(me *user.User, req ChannelUpdate, p *channelPlan) error {
	if req.IsPrivate != nil {
		p.private = *req.IsPrivate
	}
	if req.IsWebPublic != nil {
		p.webPublic = *req.IsWebPublic
	}
	switch {
	case req.HistoryPublicToSubscribers != nil:
		p.history = *req.HistoryPublicToSubscribers
	case req.IsPrivate != nil:
		p.history = !*req.IsPrivate
	}
	isDefault := p.ch.IsDefault
	if req.IsDefaultStream != nil {
		isDefault = *req.IsDefaultStream
	}
	switch {
	case p.webPublic && (!p.history || p.private), !p.private && !p.history:
		return BadRequest("Invalid parameters")
	case p.private && isDefault:
		return BadRequest("A default channel cannot be private.")
	}
	if req.IsDefaultStream != nil && !me.Role.IsAdmin() {
		return BadRequest("Insufficient permission") // default channels are for administrators
	}
	p.privacyChanged = p.private != p.oldPrivate || p.webPublic != p.oldWeb || p.history != p.oldHistory
	if p.privacyChanged && (!r.hasContentAccess(me, p.ch) || p.ch.IsArchived && !r.has(changeArchivedSubscriptions)) {
		// Even administrators must be able to read a private channel
		// to change its privacy; below 362 no one changed an archived
		// channel's.
		return BadRequest("Invalid channel ID")
	}
	if !p.private && p.ch.ID == r.settings.ModerationRequestChannelID {
		return BadRequest("Moderation request channel must be private.")
	}
	if req.IsWebPublic != nil && *req.IsWebPublic {
		if !r.settings.EnableSpectatorAccess {
			return BadRequest("Web-public channels are not enabled.")
		}
		if !r.mayCreateWebPublicChannel(me) {
			return BadRequest("Insufficient permission")
		}
	}
	return nil
}

// planChannelGroupSettings checks the requested permission settings.
func (r *Realm) planChannelGroupSettings(me *user.User, req ChannelUpdate, p *channelPlan) error {
	for _, rule := range channelGroupSettings {
		change, ok := req.GroupSettings[rule.name]
		if !ok {
			continue
		}
		current := r.normalizeGroupSetting(r.channelSetting(p.ch, rule.name))
		if change.Old != nil && !sameGroupSetting(r.normalizeGroupSetting(*change.Old), r.apiGroupSetting(current)) {
			return &Error{Code: CodeExpectationMismatch, Status: statusBadRequest,
				Msg: "'old' value does not match the expected value."}
		}
		v := r.normalizeGroupSetting(change.New)
		if sameGroupSetting(v, current) {
			continue
		}
		if slices.Contains(contentAccessSettings, rule.name) && !r.hasContentAccess(me, p.ch) {
			return BadRequest("Invalid channel ID")
		}
		if err := r.checkGroupSettingValue(rule, v); err != nil {
			return err
		}
		switch rule.name {
		case "can_delete_any_message_group", "can_delete_own_message_group":
			if v.GroupID != r.groups.byName[group.Nobody].ID && !r.canSetDeleteMessagePolicy(me) {
				return BadRequest("Insufficient permission")
			}
		case "can_send_message_group":
			if v.GroupID == 0 {
				return BadRequest("Invalid user group")
			}
		case "can_create_topic_group":
			if !p.history && v.GroupID != r.groups.byName[group.Everyone].ID {
				return BadRequest("Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group")
			}
		}
		if p.settings == nil {
			p.settings = map[string]GroupSetting{}
		}
		p.settings[rule.name] = storedGroupSetting(v)
		p.settingNames = append(p.settingNames, rule.name)
	}
	return nil
}

// applyChannelUpdate stores a checked update and announces each change,
// in Zulip's order: privacy, default status, retention, unarchiving,
// topics policy, description, name, folder, permission settings. Each
// change's events come first, then the Notification Bot's notice in the
// channel events topic, as Zulip posts them (folder moves and settings
// other than can_send_message_group have none).
func (r *Realm) applyChannelUpdate(p *channelPlan) {
	ch, me := p.ch, p.actor
	if p.privacyChanged {
		before := r.metadataAudience(ch)
		ch.InviteOnly, ch.IsWebPublic, ch.HistoryPublicToSubscribers = p.private, p.webPublic, p.history
		r.emitPrivacyChange(ch, p, before)
		r.sendChannelNotice(ch, permissionNotice(me, p), nil)
	}
	if p.isDefault != nil {
		r.setDefaultChannel(ch, *p.isDefault)
	}
	if p.retention != nil && !sameRetention(ch.MessageRetentionDays, *p.retention) {
		old := ch.MessageRetentionDays
		ch.MessageRetentionDays = *p.retention
		var value any
		if ch.MessageRetentionDays != nil {
			value = *ch.MessageRetentionDays
		}
		r.emitStreamUpdate(ch, StreamUpdateEvent{Property: "message_retention_days", Value: value})
		r.sendChannelNotice(ch, retentionNotice(me, old, ch.MessageRetentionDays), nil)
	}
	if p.unarchive {
		r.setArchived(ch, false)
		r.sendChannelNotice(ch, unarchivedNotice(ch), nil)
	}
	if p.topicsPolicy != nil {
		policy := *p.topicsPolicy
		if policy == "inherit" {
			policy = ""
		}
		if old := ch.TopicsPolicy; policy != old {
			ch.TopicsPolicy = policy
			r.emitStreamUpdate(ch, StreamUpdateEvent{Property: "topics_policy", Value: *p.topicsPolicy})
			r.sendChannelNotice(ch, r.topicsPolicyNotice(me, old, policy), nil)
		}
	}
	if p.description != nil && *p.description != ch.Description {
		old := ch.Description
		ch.Description, ch.RenderedDescription = *p.description, r.renderer.Render(*p.description)
		rendered := ch.RenderedDescription
		r.emitStreamUpdate(ch, StreamUpdateEvent{Property: "description", Value: ch.Description, RenderedDescription: &rendered})
		r.sendChannelNotice(ch, descriptionNotice(me, old, ch.Description), nil)
	}
	if p.name != nil {
		old := ch.Name
		delete(r.channels.byName, channelKey(old))
		ch.Name = *p.name
		r.channels.byName[channelKey(ch.Name)] = ch
		r.emitStreamUpdate(ch, StreamUpdateEvent{Name: old, Property: "name", Value: ch.Name})
		r.sendChannelNotice(ch, renameNotice(me, old, ch.Name), nil)
	}
	if p.folderID != nil {
		// Zulip announces a folder change even when it changes nothing.
		ch.FolderID = *p.folderID
		var value any
		if ch.FolderID != 0 {
			value = ch.FolderID
		}
		r.emitStreamUpdate(ch, StreamUpdateEvent{Property: "folder_id", Value: value})
	}
	for _, name := range p.settingNames {
		v := p.settings[name]
		if name == "can_send_message_group" {
			old := NamedGroupSetting(ch.CanSendMessageGroup)
			ch.CanSendMessageGroup = v.GroupID
			r.emitStreamUpdate(ch, StreamUpdateEvent{Property: name, Value: r.apiGroupSetting(v)})
			r.sendChannelNotice(ch, r.postingPermissionNotice(me, old, v), nil)
			continue
		}
		if ch.Permissions == nil {
			ch.Permissions = map[string]GroupSetting{}
		}
		ch.Permissions[name] = v
		r.emitStreamUpdate(ch, StreamUpdateEvent{Property: name, Value: r.apiGroupSetting(v)})
	}
}

// sameRetention compares two retention values (nil: realm default).
func sameRetention(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// ArchiveChannel archives a channel (DELETE /streams/{stream_id}): it
// leaves channel lists and default channels and takes no new messages;
// its messages stay readable to those who could read them. Archiving the
// moderation request channel turns message reporting off. The
// Notification Bot says so in the channel, read by all.
func (a *Actor) ArchiveChannel(ctx context.Context, channelID int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		ch, err := r.channelToAdminister(me, channelID)
		if err != nil {
			return err
		}
		if err := r.checkLegacyAdminContentAccess(me, ch, false); err != nil {
			return err
		}
		if ch.IsArchived {
			return BadRequest("Channel is already deactivated")
		}
		// As Zulip: the moderation request channel setting is cleared
		// first, the notice comes last and is read by everyone.
		r.clearChannelSettingsOf(ch)
		if ch.IsDefault {
			r.setDefaultChannel(ch, false)
		}
		r.setArchived(ch, true)
		r.sendChannelNotice(ch, archivedNotice(ch), map[int]bool{})
		return nil
	})
}
