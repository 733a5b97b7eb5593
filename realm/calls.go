package realm

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/user"
)

// The provider names of Zulip's call endpoints (/calls/<name>/create).
const (
	CallZoom              = "zoom"
	CallBigBlueButton     = "bigbluebutton"
	CallConstructorGroups = "constructorgroups"
	CallNextcloudTalk     = "nextcloud_talk"
)

// CallProvider is a video-call service the server creates meetings with,
// as Zoom or BigBlueButton are for Zulip. Implementations are called
// without the realm's lock and may be slow.
type CallProvider interface {
	// Name is the provider's path segment, one of the Call… constants.
	Name() string
	// NeedsUserToken reports whether a user must first authorize the
	// server with the provider (Zoom's OAuth flow).
	NeedsUserToken() bool
	// CreateCall makes a meeting and returns its URL. ErrCallTokenInvalid
	// says the provider refused the user's token.
	CreateCall(ctx context.Context, req CallRequest) (string, error)
}

// CallRequest is one meeting to create.
type CallRequest struct {
	UserID int
	// VideoCall is false for an audio-only call (Zoom's is_video_call).
	VideoCall bool
	// MeetingName names the meeting (BigBlueButton's meeting_name).
	MeetingName string
	// VoiceOnly turns cameras off (BigBlueButton's voice_only).
	VoiceOnly bool
}

// ErrCallTokenInvalid is returned by a CallProvider whose service refused
// the user's token: the realm then forgets the token.
var ErrCallTokenInvalid = errors.New("call provider refused the user's token")

// WithCallProvider configures a video-call provider (replacing any of the
// same name).
func WithCallProvider(p CallProvider) Option {
	return func(o *Options) { o.CallProviders = append(o.CallProviders, p) }
}

// FakeCallProvider is a CallProvider that makes up meetings: each call's
// URL is BaseURL followed by a fresh random meeting ID. A fake Zoom needs
// the user's token, as Zoom does.
type FakeCallProvider struct {
	Provider string
	BaseURL  string
}

// NewFakeCallProvider returns a fake provider of that name whose meetings
// live below baseURL.
func NewFakeCallProvider(name, baseURL string) *FakeCallProvider {
	return &FakeCallProvider{Provider: name, BaseURL: baseURL}
}

// Name implements CallProvider.
func (f *FakeCallProvider) Name() string { return f.Provider }

// NeedsUserToken implements CallProvider: only Zoom has per-user tokens.
func (f *FakeCallProvider) NeedsUserToken() bool { return f.Provider == CallZoom }

// CreateCall implements CallProvider.
func (f *FakeCallProvider) CreateCall(ctx context.Context, req CallRequest) (string, error) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	url := strings.TrimSuffix(f.BaseURL, "/") + "/" + hex.EncodeToString(b[:])
	switch {
	case req.VoiceOnly:
		url += "?voice_only=true"
	case !req.VideoCall:
		url += "?audio_only=true"
	}
	return url, nil
}

// callTable holds the configured providers and which users hold a token
// for the providers that need one.
type callTable struct {
	providers map[string]CallProvider // the configured providers, by name
	// tokens are the users' own token states, by user and provider.
	tokens map[int]map[string]bool
	// everyone are the providers whose token every user holds unless
	// their own state says otherwise (GrantCallTokensToAll).
	everyone []string
}

func (t *callTable) init(providers []CallProvider) {
	t.providers = map[string]CallProvider{}
	t.tokens = map[int]map[string]bool{}
	for _, p := range providers {
		t.providers[p.Name()] = p
	}
}

func (t *callTable) clone() callTable {
	out := callTable{providers: maps.Clone(t.providers), everyone: slices.Clone(t.everyone),
		tokens: make(map[int]map[string]bool, len(t.tokens))}
	for uid, m := range t.tokens {
		out.tokens[uid] = maps.Clone(m)
	}
	return out
}

// hasToken reports whether userID holds a token for provider.
func (t *callTable) hasToken(userID int, provider string) bool {
	if has, ok := t.tokens[userID][provider]; ok {
		return has
	}
	return slices.Contains(t.everyone, provider)
}

// callProviderInfo is what the API says about each known provider: its
// display name and its realm_video_chat_provider ID (0 when Zulip gives
// it none at the levels the realm speaks).
var callProviderInfo = map[string]struct {
	display string
	id      int
}{
	CallZoom:              {"Zoom", 3},
	CallBigBlueButton:     {"BigBlueButton", 4},
	CallConstructorGroups: {"Constructor Groups", 0},
	CallNextcloudTalk:     {"Nextcloud Talk", 0},
}

// notConfigured is Zulip's answer to a call through a provider the server
// has no credentials for.
func notConfigured(provider string) *Error {
	switch provider {
	case CallZoom:
		return BadRequest("Zoom credentials have not been configured")
	case CallBigBlueButton:
		return BadRequest("BigBlueButton is not configured.")
	}
	if info, ok := callProviderInfo[provider]; ok {
		return BadRequest("%s is not configured.", info.display)
	}
	return BadRequest("Invalid video chat provider")
}

func invalidZoomToken() *Error {
	return &Error{Code: CodeInvalidZoomToken, Msg: "Invalid Zoom access token", Status: statusBadRequest}
}

// CreateCall answers POST /calls/<provider>/create: a meeting URL from the
// configured provider. Without that provider the call fails as Zulip's
// does ("Zoom credentials have not been configured"); a provider needing
// the user's token refuses a user without one (INVALID_ZOOM_TOKEN), and a
// token the provider rejects is forgotten, with a has_zoom_token event.
func (a *Actor) CreateCall(ctx context.Context, provider string, req CallRequest) (string, error) {
	r := a.r
	var p CallProvider
	err := a.read(ctx, func(me *user.User) error {
		p = r.calls.providers[provider]
		if p == nil {
			return notConfigured(provider)
		}
		if p.NeedsUserToken() && !r.calls.hasToken(me.ID, provider) {
			return invalidZoomToken()
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	req.UserID = a.id
	url, err := p.CreateCall(ctx, req)
	switch {
	case errors.Is(err, ErrCallTokenInvalid):
		_ = r.update(func() error {
			r.setCallToken(a.id, provider, false)
			return nil
		})
		return "", invalidZoomToken()
	case err != nil:
		name := provider
		if info, ok := callProviderInfo[provider]; ok {
			name = info.display
		}
		return "", BadRequest("Failed to create %s call", name)
	}
	return url, nil
}

// SetCallToken gives a user a provider's token, or takes it away: what
// Zoom's OAuth flow does on a real server. The user's clients get a
// has_zoom_token event when it changes.
func (r *Realm) SetCallToken(userID int, provider string, has bool) error {
	return r.update(func() error {
		if u := r.users.byID[userID]; u == nil {
			return noSuchUser()
		}
		if r.calls.providers[provider] == nil {
			return notConfigured(provider)
		}
		r.setCallToken(userID, provider, has)
		return nil
	})
}

// GrantCallTokensToAll gives every user, present and future, a token for
// provider, so that a fake server's calls work without the OAuth flow.
func (r *Realm) GrantCallTokensToAll(provider string) error {
	return r.update(func() error {
		if r.calls.providers[provider] == nil {
			return notConfigured(provider)
		}
		for id := range r.users.byID {
			r.setCallToken(id, provider, true)
			delete(r.calls.tokens[id], provider)
		}
		if !slices.Contains(r.calls.everyone, provider) {
			r.calls.everyone = append(r.calls.everyone, provider)
		}
		return nil
	})
}

// setCallToken records the token state and tells the user's clients when
// it changed. The caller holds the write lock.
func (r *Realm) setCallToken(userID int, provider string, has bool) {
	if r.calls.hasToken(userID, provider) == has {
		return
	}
	if r.calls.tokens[userID] == nil {
		r.calls.tokens[userID] = map[string]bool{}
	}
	r.calls.tokens[userID][provider] = has
	if provider == CallZoom {
		r.emit("has_zoom_token", HasZoomTokenEvent{Value: has}, userID)
	}
}

// HasZoomTokenEvent tells a user's clients whether the user holds a Zoom
// token (the spec's has_conference_token).
type HasZoomTokenEvent struct {
	Value bool `json:"value"`
}

// availableCallProviders is realm_available_video_chat_providers: the
// providers every server has, and the configured ones with a
// realm_video_chat_provider ID.
func (r *Realm) availableCallProviders() map[string]VideoChatProvider {
	out := map[string]VideoChatProvider{"disabled": {Name: "None", ID: 0}, "jitsi_meet": {Name: "Jitsi Meet", ID: 1}}
	for name := range r.calls.providers {
		if info, ok := callProviderInfo[name]; ok && info.id != 0 {
			out[name] = VideoChatProvider{Name: info.display, ID: info.id}
		}
	}
	return out
}

// register fills the video_calls section.
func (t *callTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("video_calls") {
		out.VideoCallsState = &VideoCallsState{HasZoomToken: t.hasToken(me.ID, CallZoom)}
	}
}
