package realm

// EventPayload is the typed body of an event: one of this package's
// *Event types (MessageEvent, UserTopicEvent, …). The interface is sealed:
// only this package's payload types implement it, so a type switch over
// them is complete.
type EventPayload interface{ isEventPayload() }

func (AttachmentEvent) isEventPayload()                {}
func (RealmPlanTypeEvent) isEventPayload()             {}
func (ChannelFolderEvent) isEventPayload()             {}
func (DeleteMessageEvent) isEventPayload()             {}
func (HasZoomTokenEvent) isEventPayload()              {}
func (OnboardingStepsEvent) isEventPayload()           {}
func (HeartbeatEvent) isEventPayload()                 {}
func (InvitesChangedEvent) isEventPayload()            {}
func (LinkifiersEvent) isEventPayload()                {}
func (MessageEvent) isEventPayload()                   {}
func (MutedTopicsEvent) isEventPayload()               {}
func (RealmBotAddEvent) isEventPayload()               {}
func (RealmBotUpdateEvent) isEventPayload()            {}
func (RealmEmojiEvent) isEventPayload()                {}
func (ReactionEvent) isEventPayload()                  {}
func (RealmUpdateDictEvent) isEventPayload()           {}
func (RealmUpdateEvent) isEventPayload()               {}
func (RealmUserAddEvent) isEventPayload()              {}
func (RealmUserUpdateEvent) isEventPayload()           {}
func (RestartEvent) isEventPayload()                   {}
func (SavedSnippetEvent) isEventPayload()              {}
func (DefaultStreamsEvent) isEventPayload()            {}
func (MutedUsersEvent) isEventPayload()                {}
func (AlertWordsEvent) isEventPayload()                {}
func (SubmessageEvent) isEventPayload()                {}
func (DraftEvent) isEventPayload()                     {}
func (StreamCreateEvent) isEventPayload()              {}
func (StreamDeleteEvent) isEventPayload()              {}
func (StreamUpdateEvent) isEventPayload()              {}
func (SubscriptionAddEvent) isEventPayload()           {}
func (SubscriptionPeerEvent) isEventPayload()          {}
func (SubscriptionRemoveEvent) isEventPayload()        {}
func (SubscriptionUpdateEvent) isEventPayload()        {}
func (TypingEvent) isEventPayload()                    {}
func (EditTypingEvent) isEventPayload()                {}
func (NavigationViewEvent) isEventPayload()            {}
func (RealmPlaygroundsEvent) isEventPayload()          {}
func (RealmDomainsEvent) isEventPayload()              {}
func (RealmExportEvent) isEventPayload()               {}
func (RealmExportConsentEvent) isEventPayload()        {}
func (RealmUserSettingsDefaultsEvent) isEventPayload() {}
func (UpdateMessageFlagsEvent) isEventPayload()        {}
func (UserGroupAddEvent) isEventPayload()              {}
func (UserGroupMembersEvent) isEventPayload()          {}
func (UserGroupRemoveEvent) isEventPayload()           {}
func (UserGroupSubgroupsEvent) isEventPayload()        {}
func (UserGroupUpdateEvent) isEventPayload()           {}
func (UserTopicEvent) isEventPayload()                 {}
func (UpdateMessageEvent) isEventPayload()             {}
func (RenderingUpdateEvent) isEventPayload()           {}
func (PresenceEvent) isEventPayload()                  {}
func (UserStatusEvent) isEventPayload()                {}
func (ScheduledMessagesEvent) isEventPayload()         {}
func (RemindersEvent) isEventPayload()                 {}
