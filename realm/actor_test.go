package realm

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// idWebhookBot is the dev realm's incoming-webhook bot,
// webhook-bot@zulip.com.
const idWebhookBot = 17

// wantWebhookRefusal fails unless err is Zulip's refusal of an
// incoming-webhook bot's key.
func wantWebhookRefusal(t *testing.T, what string, err error) {
	t.Helper()
	var re *Error
	if !errors.As(err, &re) || re.Code != CodeUnauthorized || re.Status != 401 ||
		re.Msg != "This API is not available to incoming webhook bots." {
		t.Errorf("%s: %v, want the incoming-webhook refusal (UNAUTHORIZED, 401)", what, err)
	}
}

// An incoming-webhook bot sends messages and does nothing else, through
// the Go API as over HTTP: the refusal is the realm's, whoever made the
// actor.
func TestIncomingWebhookBotOnlySends(t *testing.T) {
	r, _ := newTestRealm(t)
	bot := r.As(idWebhookBot)
	sent, err := bot.SendChannelMessage(bg, "Denmark", "alerts", "build failed")
	if err != nil {
		t.Fatalf("channel send: %v", err)
	}
	if _, err := bot.SendDirectMessage(bg, []int{idHamlet}, "build failed"); err != nil {
		t.Fatalf("direct send: %v", err)
	}
	if m, ok := r.LastMessage(bg, idHamlet); !ok || m.Content != "build failed" || m.SenderID != idWebhookBot {
		t.Fatalf("hamlet's last message %+v", m)
	}

	wantWebhookRefusal(t, "CheckAPIAccess", bot.CheckAPIAccess())
	_, err = bot.Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 1})
	wantWebhookRefusal(t, "GetMessages", err)
	_, err = bot.Register(bg, RegisterRequest{})
	wantWebhookRefusal(t, "Register", err)
	_, err = bot.Listen(bg, RegisterRequest{})
	wantWebhookRefusal(t, "Listen", err)
	_, err = bot.PollEvents(bg, GetEventsRequest{QueueID: "1"})
	wantWebhookRefusal(t, "PollEvents", err)
	wantWebhookRefusal(t, "DeleteQueue", bot.DeleteQueue(bg, "1"))
	_, err = bot.Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Verona"}}})
	wantWebhookRefusal(t, "Subscribe", err)
	_, err = bot.RenderMessage(bg, "**x**")
	wantWebhookRefusal(t, "RenderMessage", err)
	_, err = bot.User(bg, idHamlet, UserViewOptions{})
	wantWebhookRefusal(t, "GetUser", err)
	_, err = bot.Upload(bg, UploadRequest{Name: "a.txt", Body: strings.NewReader("x")})
	wantWebhookRefusal(t, "Upload", err)
	wantWebhookRefusal(t, "AddReaction", bot.AddReaction(bg, ReactionRequest{MessageID: sent.ID, EmojiName: str("smile")}))

	// The refusals changed nothing.
	if n := r.QueueCount(); n != 0 {
		t.Errorf("the bot opened %d queues", n)
	}
	if m, _ := r.LastMessage(bg, idHamlet); len(m.Reactions) != 0 {
		t.Errorf("reactions %+v", m.Reactions)
	}
	if r.isSubscribed(channelID(t, r, "Verona"), idWebhookBot) {
		t.Error("the bot subscribed to Verona")
	}

	// Authenticating is not refused: the key is good for sending.
	_, key, _ := r.APIKey("webhook-bot@zulip.com")
	authed, err := r.Authenticate("webhook-bot@zulip.com", key)
	if err != nil {
		t.Fatal(err)
	}
	wantWebhookRefusal(t, "CheckAPIAccess after Authenticate", authed.CheckAPIAccess())
	if _, err := r.ActiveActor(idWebhookBot); err != nil {
		t.Fatalf("ActiveActor: %v", err)
	}

	// A generic bot is not limited.
	if err := r.As(idDefaultBot).CheckAPIAccess(); err != nil {
		t.Fatalf("generic bot: %v", err)
	}
	if _, err := r.As(idDefaultBot).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 1}); err != nil {
		t.Fatalf("generic bot fetch: %v", err)
	}
}

// Every operation of an incoming-webhook bot's actor but a send is
// refused: the refusal comes from the lock helpers every operation goes
// through, so a new Actor method cannot forget the rule. Each is called
// with zero arguments; the few that check their arguments before they
// read the realm fail on those instead, and nothing happens either way.
func TestIncomingWebhookBotRefusedEverywhere(t *testing.T) {
	r, _ := newTestRealm(t)
	bot := reflect.ValueOf(r.As(idWebhookBot))
	errType := reflect.TypeFor[error]()
	ctxType := reflect.TypeFor[context.Context]()
	sends := map[string]bool{"SendMessage": true, "SendChannelMessage": true, "SendDirectMessage": true}
	argsFirst := map[string]bool{"AddReaction": true, "CreateScheduledMessage": true, "UpdateScheduledMessage": true,
		"ReportMessage": true, "SetEditTyping": true, "SetTyping": true, "UpdateSubscriptions": true}
	checked := 0
	for i := range bot.NumMethod() {
		m := bot.Type().Method(i)
		ft := m.Type
		if sends[m.Name] || ft.NumOut() == 0 || ft.Out(ft.NumOut()-1) != errType {
			continue
		}
		args := make([]reflect.Value, ft.NumIn()-1)
		for j := range args {
			in := ft.In(j + 1)
			if in == ctxType {
				args[j] = reflect.ValueOf(bg)
			} else {
				args[j] = reflect.Zero(in)
			}
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s panicked: %v", m.Name, p)
				}
			}()
			out := bot.Method(i).Call(args)
			err, _ := out[len(out)-1].Interface().(error)
			if argsFirst[m.Name] {
				if !errors.Is(err, ErrBadRequest) && !errors.Is(err, ErrRequestVariableMissing) {
					t.Errorf("%s: %v, want an argument error", m.Name, err)
				}
				return
			}
			wantWebhookRefusal(t, m.Name, err)
		}()
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d operations checked", checked)
	}
}
