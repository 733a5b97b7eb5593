package realm

import (
	"context"

	"github.com/minizulip/minizulip/user"
)

// SubscriptionPropertyChange is one item of POST
// /users/me/subscriptions/properties: a property of the caller's
// subscription to a channel and its new value, a string or a bool as the
// client sent it.
type SubscriptionPropertyChange struct {
	ChannelID int
	Property  string
	Value     any
}

// SubscriptionUpdateEvent tells a user one property of their
// subscription changed.
type SubscriptionUpdateEvent struct {
	Op       string `json:"op"`
	StreamID int    `json:"stream_id"`
	Property string `json:"property"`
	Value    any    `json:"value"`
}

// subscriptionProperties are the properties a user may change, each with
// the check of its value (a color, or a boolean).
var subscriptionProperties = map[string]func(name string, v any) (any, error){
	"color":                    checkColorValue,
	"is_muted":                 checkBoolValue,
	"in_home_view":             checkBoolValue,
	"pin_to_top":               checkBoolValue,
	"desktop_notifications":    checkBoolValue,
	"audible_notifications":    checkBoolValue,
	"push_notifications":       checkBoolValue,
	"email_notifications":      checkBoolValue,
	"wildcard_mentions_notify": checkBoolValue,
}

func checkColorValue(name string, v any) (any, error) {
	s, ok := v.(string)
	if !ok {
		return nil, BadRequest("%s is not a string", name)
	}
	if !colorPattern.MatchString(s) {
		return nil, BadRequest("%s is not a valid hex color code", name)
	}
	return s, nil
}

func checkBoolValue(name string, v any) (any, error) {
	b, ok := v.(bool)
	if !ok {
		return nil, BadRequest("%s is not a boolean", name)
	}
	return b, nil
}

// UpdateSubscriptionProperties changes properties of the caller's
// subscriptions, in order, each announced by a subscription update event
// to the caller (is_muted and its legacy inverse in_home_view by one event
// for each name). Every change is checked before any is made.
func (a *Actor) UpdateSubscriptionProperties(ctx context.Context, changes []SubscriptionPropertyChange) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		type planned struct {
			sub      *storedSubscription
			property string
			value    any
		}
		plan := make([]planned, len(changes))
		for i, c := range changes {
			check, ok := subscriptionProperties[c.Property]
			if !ok {
				return BadRequest("Unknown subscription property: %s", c.Property)
			}
			ch := r.channels.byID[c.ChannelID]
			if ch == nil || !r.hasContentAccess(me, ch) {
				return BadRequest("Invalid channel ID")
			}
			sub := r.channels.subs[ch.ID][me.ID]
			if sub == nil || !sub.Active {
				return BadRequest("Not subscribed to channel ID %d", ch.ID)
			}
			v, err := check(c.Property, c.Value)
			if err != nil {
				return err
			}
			plan[i] = planned{sub, c.Property, v}
		}
		for _, p := range plan {
			r.setSubscriptionProperty(me, p.sub, p.property, p.value)
		}
		return nil
	})
}

// setSubscriptionProperty stores one checked value and sends its events.
func (r *Realm) setSubscriptionProperty(me *user.User, s *storedSubscription, property string, value any) {
	emit := func(name string, v any) {
		r.emit("subscription", SubscriptionUpdateEvent{Op: "update", StreamID: s.ChannelID, Property: name, Value: v}, me.ID)
	}
	b, _ := value.(bool)
	switch property {
	case "color":
		s.Color = value.(string)
	case "is_muted", "in_home_view":
		s.IsMuted = b
		if property == "in_home_view" {
			s.IsMuted = !b
		}
		emit("in_home_view", !s.IsMuted)
		if r.has(changeIsMutedEvents) {
			emit("is_muted", s.IsMuted)
		}
		return
	case "pin_to_top":
		s.PinToTop = b
	case "desktop_notifications":
		s.DesktopNotifications = &b
	case "audible_notifications":
		s.AudibleNotifications = &b
	case "push_notifications":
		s.PushNotifications = &b
	case "email_notifications":
		s.EmailNotifications = &b
	case "wildcard_mentions_notify":
		s.WildcardMentionsNotify = &b
	}
	emit(property, value)
}

// UpdateSubscriptionsRequest is PATCH /users/me/subscriptions: channels to
// join (created when missing) and channel names to leave, for the caller.
type UpdateSubscriptionsRequest struct {
	Add    []ChannelSpec
	Delete []string
}

// UpdateSubscriptionsResult is the answer of PATCH
// /users/me/subscriptions: the answers of subscribing and unsubscribing.
type UpdateSubscriptionsResult struct {
	SubscribeResult
	UnsubscribeResult
}

// UpdateSubscriptions joins and leaves channels in one call, as Zulip's
// composed view does: both halves are checked before either is applied,
// so a refused half changes nothing.
func (a *Actor) UpdateSubscriptions(ctx context.Context, req UpdateSubscriptionsRequest) (ans UpdateSubscriptionsResult, err error) {
	if len(req.Add) == 0 && len(req.Delete) == 0 {
		return ans, BadRequest(`Nothing to do. Specify at least one of "add" or "delete".`)
	}
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		sub := SubscribeRequest{Channels: req.Add}
		addPlan, err := r.planSubscribe(me, sub)
		if err != nil {
			return err
		}
		removePlan, err := r.planUnsubscribe(me, UnsubscribeRequest{Channels: req.Delete})
		if err != nil {
			return err
		}
		ans.SubscribeResult = r.applySubscribe(me, sub, addPlan)
		ans.UnsubscribeResult = r.applyUnsubscribe(removePlan)
		return nil
	})
	return ans, err
}
