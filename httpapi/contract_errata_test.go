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
