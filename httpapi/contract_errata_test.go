package httpapi

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// fixErrata corrects the description where it contradicts the server it
// describes, before the contract check uses it:
//
//   - register's `reminders` items are the Reminder schema, not
//     ScheduledMessage: Zulip fills the section with the same reminder
//     objects GET /reminders answers (zerver/lib/events.py,
//     get_undelivered_reminders), which carry reminder_id and
//     reminder_target_message_id and no scheduled_message_id.
func fixErrata(doc *openapi3.T) {
	reminder := doc.Components.Schemas["Reminder"]
	if reminder == nil {
		return
	}
	var walk func(s *openapi3.Schema, seen map[*openapi3.Schema]bool)
	walk = func(s *openapi3.Schema, seen map[*openapi3.Schema]bool) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if p := s.Properties["reminders"]; p != nil && p.Value != nil && p.Value.Items != nil &&
			strings.HasSuffix(p.Value.Items.Ref, "/ScheduledMessage") {
			p.Value.Items = openapi3.NewSchemaRef("#/components/schemas/Reminder", reminder.Value)
		}
		for _, c := range children(s) {
			walk(c, seen)
		}
	}
	if r := doc.Components.Schemas["register_queue_200_response"]; r != nil {
		walk(r.Value, map[*openapi3.Schema]bool{})
	}
}

// allowHotspots adds to the OnboardingStep schema the fields of the
// tutorial's hotspots, for a server below feature level 259 (which
// removed them; the description no longer has them): title,
// description, delay and has_trigger (feature level 230), as Zulip's
// hotspot objects carried them (zerver/lib/hotspots.py).
func allowHotspots(doc *openapi3.T, level int) {
	step := doc.Components.Schemas["OnboardingStep"]
	if step == nil || step.Value == nil || level < 0 || level >= 259 {
		return
	}
	for name, s := range map[string]*openapi3.Schema{
		"title": openapi3.NewStringSchema(), "description": openapi3.NewStringSchema(),
		"delay": openapi3.NewFloat64Schema(), "has_trigger": openapi3.NewBoolSchema(),
	} {
		step.Value.Properties[name] = openapi3.NewSchemaRef("", s)
	}
}
