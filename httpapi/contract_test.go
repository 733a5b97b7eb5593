package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// The contract check validates every response the package's test servers
// write, and every event GET /events returns, against Zulip's OpenAPI
// description (../shared/reference/zulip-openapi.yaml beside the
// repository, feature level ~420). The fields newer levels add are
// allowed by name in the list below, nothing else. A deviation fails the
// package's tests (TestMain); without the description the check says so
// once and the tests run unchecked. MINIZULIP_CONTRACT=off turns it off.
var probe struct {
	once sync.Once
	// contract is the description as a server of its own level answers;
	// older is the same with the fields it notes as newer than 185
	// optional, for servers advertising a lower level.
	*contract
	older     *contract
	olderOnce sync.Once
	err       error
	mu        sync.Mutex
	fails     map[string]int
	n         int
	// validating serializes validations.
	validating sync.Mutex
	// events counts the events validated one by one.
	events int
	// undocumented counts responses whose status the operation does not
	// document, which cannot be validated.
	undocumented int
}

// contract is Zulip's description prepared for validation.
type contract struct {
	router routers.Router
	// eventBranches are the schemas of the event types GET /events sends.
	eventBranches openapi3.SchemaRefs
	// pruned counts the fields left out (or made optional) as newer than
	// the level the contract is for.
	pruned int
}

// contractDescription is where a checkout with shared/ beside it keeps
// Zulip's description.
const contractDescription = "../../shared/reference/zulip-openapi.yaml"

// contractLevel is the feature level of the description: a server
// advertising it or more is checked against the description as it is.
var contractLevel int

// loadProbe reads and prepares the description once.
func loadProbe() {
	probe.once.Do(func() {
		probe.contract, probe.err = newContract(-1, false)
		if probe.err == nil {
			data, _ := os.ReadFile(contractDescription)
			for _, m := range featureLevelRE.FindAllSubmatch(data, -1) {
				n, _ := strconv.Atoi(string(m[1]))
				contractLevel = max(contractLevel, n)
			}
		}
	})
}

// featureLevelRE finds the description's notes.
var featureLevelRE = regexp.MustCompile(`feature level (\d+)`)

// olderContract is the contract for servers below the description's level.
func olderContract() *contract {
	probe.olderOnce.Do(func() {
		c, err := newContract(firstContractLevel, true)
		if err != nil {
			panic(err) // the same description loaded for probe
		}
		probe.older = c
	})
	return probe.older
}

// firstContractLevel is the oldest level whose fields the description's
// notes are read from: Zulip 7.0.
const firstContractLevel = 185

// newContract loads the description for a server of feature level
// level: the fields it notes as new after level are left out (so that a
// closed object refuses them), or, with optional, only no longer
// required. A negative level takes the description as it is.
func newContract(level int, optional bool) (*contract, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(contractDescription)
	if err != nil {
		return nil, err
	}
	doc.Servers = openapi3.Servers{{URL: "http://example.com/api/v1"}}
	fixErrata(doc)
	allowHotspots(doc, level)
	c := &contract{}
	if level >= 0 {
		c.pruned = pruneNewer(doc, level, optional)
	}
	flat, open := map[*openapi3.Schema]bool{}, map[*openapi3.Schema]bool{}
	eachResponseSchema(doc, func(sc *openapi3.Schema) { flattenAllOf(sc, flat) })
	eachResponseSchema(doc, func(sc *openapi3.Schema) { allowNewer(sc, open) })
	if r := doc.Components.Schemas["get_events_200_response"]; r != nil && r.Value != nil {
		if ev := r.Value.Properties["events"]; ev != nil && ev.Value != nil && ev.Value.Items != nil {
			item := ev.Value.Items.Value
			c.eventBranches = append(append(openapi3.SchemaRefs{}, item.AnyOf...), item.OneOf...)
			// The envelope is checked by the router; each event by
			// checkEvents, against its own type's schema.
			ev.Value.Items = openapi3.NewSchemaRef("", openapi3.NewSchema())
		}
	}
	c.router, err = gorillamux.NewRouter(doc)
	return c, err
}

// newInRE finds the level a field's description says it is new at.
var newInRE = regexp.MustCompile(`New in Zulip [0-9.]+ \(feature level (\d+)\)`)

// newAt is the earliest level a description says its field is new at,
// or 0.
func newAt(description string) int {
	at := 0
	for _, m := range newInRE.FindAllStringSubmatch(description, -1) {
		if n, _ := strconv.Atoi(m[1]); at == 0 || n < at {
			at = n
		}
	}
	return at
}

// beforeRE finds the notes saying how a field was before a level, or
// that its values changed at a level.
var beforeRE = regexp.MustCompile(`(?:Before|Prior to) Zulip [0-9.]+ \(feature level (\d+)\)|In Zulip [0-9.]+ \(feature level (\d+)\),\s+the\s+values\s+in\s+this`)

// changedAfter reports whether a description notes that its field had
// another shape before a level above level.
func changedAfter(description string, level int) bool {
	for _, m := range beforeRE.FindAllStringSubmatch(description, -1) {
		if n, _ := strconv.Atoi(m[1] + m[2]); n > level && n >= firstContractLevel {
			return true
		}
	}
	return false
}

// namedBeforeRE finds the notes saying a field had another name before a
// level.
var namedBeforeRE = regexp.MustCompile("(?:Before|Prior to) Zulip [0-9.]+ \\(feature level (\\d+)\\),\\s+(?:this \\w+|the `\\w+`\\s+setting)\\s+was\\s+named\\s+`(\\w+)`")

// pruneNewer leaves out (or, with optional, makes optional) the
// properties of every schema that the description notes as new after
// level, and the same names in the other members of an allOf one of
// whose members lost them (Zulip's allOf members restate a base's
// fields to make them nullable). A field the description says had
// another shape before a level above level takes any value. It returns
// how many properties it changed.
func pruneNewer(doc *openapi3.T, level int, optional bool) int {
	n := 0
	prunedIn := map[*openapi3.Schema][]string{}
	drop := func(s *openapi3.Schema, name string) {
		if slices.Contains(s.Required, name) {
			s.Required = slices.DeleteFunc(slices.Clone(s.Required), func(r string) bool { return r == name })
		}
		if _, ok := s.Properties[name]; ok {
			n++
			if !optional {
				delete(s.Properties, name)
			}
		}
	}
	var all []*openapi3.Schema
	seen := map[*openapi3.Schema]bool{}
	var walk func(s *openapi3.Schema)
	walk = func(s *openapi3.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		all = append(all, s)
		for _, c := range children(s) {
			walk(c)
		}
	}
	eachResponseSchema(doc, walk)
	for _, s := range all {
		var older []string
		for name, p := range s.Properties {
			if p == nil || p.Value == nil {
				continue
			}
			for _, m := range namedBeforeRE.FindAllStringSubmatch(p.Value.Description, -1) {
				if n, _ := strconv.Atoi(m[1]); n > level && m[2] != name {
					// Sent by its older name: the newer is not sent.
					older = append(older, m[2])
					prunedIn[s] = append(prunedIn[s], name)
				}
			}
			if at := newAt(p.Value.Description); at > level && at >= firstContractLevel {
				prunedIn[s] = append(prunedIn[s], name)
			} else if name != "type" && name != "op" && changedAfter(p.Value.Description, level) {
				// Its older shape is not described: any value.
				s.Properties[name] = openapi3.NewSchemaRef("", openapi3.NewSchema().WithNullable())
				n++
			}
		}
		// A field by the name it had before: any value.
		for _, name := range older {
			if _, ok := s.Properties[name]; !ok {
				s.Properties[name] = openapi3.NewSchemaRef("", openapi3.NewSchema().WithNullable())
				n++
			}
		}
	}
	// An operation that answered "result": "partially_completed" before
	// a level above level: its success takes any object (the older answer
	// is not described).
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if !strings.Contains(op.Description, "partially_completed") || !changedAfter(op.Description, level) {
				continue
			}
			if rr := op.Responses.Status(200); rr != nil && rr.Value != nil {
				for _, mt := range rr.Value.Content {
					mt.Schema = openapi3.NewSchemaRef("", openapi3.NewObjectSchema())
					n++
				}
			}
		}
	}
	// A success response the description notes as new: its fields.
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, rr := range op.Responses.Map() {
				if rr.Value == nil || rr.Value.Description == nil {
					continue
				}
				if at := newAt(*rr.Value.Description); at <= level || at < firstContractLevel {
					continue
				}
				for _, mt := range rr.Value.Content {
					if mt.Schema == nil || mt.Schema.Value == nil {
						continue
					}
					for _, name := range propertyNames(mt.Schema.Value) {
						if name != "result" && name != "msg" && name != "ignored_parameters_unsupported" {
							prunedIn[mt.Schema.Value] = append(prunedIn[mt.Schema.Value], name)
						}
					}
				}
			}
		}
	}
	for _, s := range all {
		for _, name := range prunedIn[s] {
			drop(s, name)
		}
	}
	// The restated fields of allOf members, as deep as the members go.
	var inherited func(s *openapi3.Schema, seen map[*openapi3.Schema]bool) []string
	inherited = func(s *openapi3.Schema, seen map[*openapi3.Schema]bool) []string {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		out := slices.Clone(prunedIn[s])
		for _, m := range s.AllOf {
			if m != nil {
				out = append(out, inherited(m.Value, seen)...)
			}
		}
		return out
	}
	for _, s := range all {
		if len(s.AllOf) == 0 {
			continue
		}
		names := inherited(s, map[*openapi3.Schema]bool{})
		for _, m := range s.AllOf {
			if m == nil || m.Value == nil {
				continue
			}
			for _, name := range names {
				drop(m.Value, name)
			}
		}
	}
	return n
}

// propertyNames are the properties of s and of its allOf members.
func propertyNames(s *openapi3.Schema) []string {
	var out []string
	for name := range s.Properties {
		out = append(out, name)
	}
	for _, m := range s.AllOf {
		if m != nil && m.Value != nil {
			out = append(out, propertyNames(m.Value)...)
		}
	}
	return out
}

// checkEvents validates each event of a GET /events answer against the
// schema of its type (and op): it passes when one of them accepts it.
func (c *contract) checkEvents(body []byte) []string {
	var answer struct {
		Events []map[string]any `json:"events"`
	}
	if json.Unmarshal(body, &answer) != nil {
		return []string{"answer is not JSON"}
	}
	var errs []string
	for _, ev := range answer.Events {
		typ, _ := ev["type"].(string)
		op, _ := ev["op"].(string)
		var candidates int
		var last error
		ok := false
		for _, b := range c.eventBranches {
			if b == nil || b.Value == nil || !enumHas(b.Value, "type", typ) || (op != "" && !enumHas(b.Value, "op", op)) {
				continue
			}
			candidates++
			if last = b.Value.VisitJSON(map[string]any(ev)); last == nil {
				ok = true
				break
			}
		}
		probe.mu.Lock()
		probe.events++
		probe.mu.Unlock()
		switch {
		case ok:
		case candidates == 0:
			errs = append(errs, fmt.Sprintf("event type %q op %q is not in the description", typ, op))
		default:
			msg := last.Error()
			if i := strings.IndexByte(msg, '\n'); i > 0 {
				msg = msg[:i]
			}
			errs = append(errs, fmt.Sprintf("event type %q op %q: %s", typ, op, msg))
		}
	}
	return errs
}

// enumHas reports whether schema s's property name allows value (a
// property without an enum allows any).
func enumHas(s *openapi3.Schema, name, value string) bool {
	p := s.Properties[name]
	if p == nil || p.Value == nil {
		return name == "op" // events without ops have no op property
	}
	if len(p.Value.Enum) == 0 {
		return true
	}
	for _, e := range p.Value.Enum {
		if e == value {
			return true
		}
	}
	return false
}

// eachResponseSchema calls fn on every schema a response can use.
func eachResponseSchema(doc *openapi3.T, fn func(*openapi3.Schema)) {
	for _, sr := range doc.Components.Schemas {
		fn(sr.Value)
	}
	for _, rr := range doc.Components.Responses {
		for _, mt := range rr.Value.Content {
			fn(mt.Schema.Value)
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, rr := range op.Responses.Map() {
				if rr.Value == nil {
					continue
				}
				for _, mt := range rr.Value.Content {
					if mt.Schema != nil {
						fn(mt.Schema.Value)
					}
				}
			}
		}
	}
}

// contractCheck validates one response of a server advertising the
// description's level or more against its operation.
func contractCheck(req *http.Request, status int, header http.Header, body []byte) {
	contractCheckAt(contractLevel, req, status, header, body)
}

// contractCheckAt validates one response of a server advertising level:
// below the description's level, the fields it notes as newer are
// optional.
func contractCheckAt(level int, req *http.Request, status int, header http.Header, body []byte) {
	if probe.contract == nil || probe.router == nil {
		return
	}
	c := probe.contract
	if level < contractLevel {
		c = olderContract()
	}
	for _, e := range c.check(req, status, header, body) {
		probe.mu.Lock()
		if probe.fails == nil {
			probe.fails = map[string]int{}
		}
		probe.fails[e]++
		probe.mu.Unlock()
	}
}

// check validates one response against its operation; it returns the
// deviations found, and counts what it validated.
func (c *contract) check(req *http.Request, status int, header http.Header, body []byte) []string {
	path := req.URL.Path
	if !strings.HasPrefix(path, "/api/v1/") && !strings.HasPrefix(path, "/json/") {
		// Not a Zulip API path: the test-control API (/minizulip/), which
		// does not reach the observer anyway, or a path nothing serves.
		return nil
	}
	path = strings.TrimPrefix(strings.TrimPrefix(path, "/json"), "/api/v1")
	u := *req.URL
	u.Scheme, u.Host, u.Path = "http", "example.com", "/api/v1"+path
	r2 := req.Clone(context.Background())
	r2.URL = &u
	route, params, err := c.router.FindRoute(r2)
	if err != nil {
		return nil
	}
	if route.Operation.Responses.Status(status) == nil && route.Operation.Responses.Default() == nil {
		// The description documents no response for this status (Zulip's
		// common 401/404/405 answers live outside the operations).
		probe.mu.Lock()
		probe.undocumented++
		probe.mu.Unlock()
		return nil
	}
	in := &openapi3filter.RequestValidationInput{Request: r2, PathParams: params, Route: route,
		Options: &openapi3filter.Options{ExcludeRequestBody: true, IncludeResponseStatus: true, MultiError: true}}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header,
		Body: io.NopCloser(bytes.NewReader(body)), Options: in.Options}
	// kin-openapi compiles patterns lazily inside shared schemas, so
	// validations run one at a time.
	probe.validating.Lock()
	err = openapi3filter.ValidateResponse(context.Background(), out)
	var eventErrs []string
	if route.Path == "/events" && status == http.StatusOK {
		eventErrs = c.checkEvents(body)
	}
	probe.validating.Unlock()
	probe.mu.Lock()
	probe.n++
	probe.mu.Unlock()
	var fails []string
	for _, e := range eventErrs {
		fails = append(fails, "GET /events "+e)
	}
	if err != nil {
		msg := err.Error()
		if len(msg) > 3000 {
			msg = msg[:3000]
		}
		fails = append(fails, req.Method+" "+route.Path+" "+msg)
	}
	return fails
}

// allowed are the fields minizulip sends that Zulip's description at
// feature level ~420 lacks, each added to the object schemas that carry
// its anchor field. Nothing else is allowed.
var allowed = []struct {
	field, anchor string
	schema        *openapi3.Schema
	why           string
}{
	{"is_imported_stub", "is_bot", openapi3.NewBoolSchema(),
		"user objects, feature level 433 (spec: Get a user)"},
	{"web_inbox_show_channel_folders", "emojiset", openapi3.NewBoolSchema(),
		"personal settings, feature level 431 (spec: Update settings)"},
	{"alternative_url_templates", "url_template", openapi3.NewArraySchema().WithItems(openapi3.NewStringSchema()),
		"linkifiers, feature level 478 (spec: linkifiers; reference/register-and-events.md)"},
	{"can_create_topic_group", "can_remove_subscribers_group", groupSettingSchema(),
		"channel permission settings, after feature level 435 (spec: channel settings at 496)"},
	{"can_create_topic_group", "can_remove_subscribers_group_id", groupSettingSchema(),
		"the same, beside can_remove_subscribers_group's name below feature level 197"},
	{"example_input", "url_template", openapi3.NewStringSchema().WithNullable(),
		"linkifiers, feature level 471 (reference/register-and-events.md)"},
	{"reverse_template", "url_template", openapi3.NewStringSchema().WithNullable(),
		"linkifiers, feature level 471 (reference/register-and-events.md)"},
	{"objections", "code", openapi3.NewArraySchema().WithItems(openapi3.NewObjectSchema()),
		"CANNOT_DEACTIVATE_GROUP_IN_USE errors, feature level 298 (spec: errors; the description shows it only in an example)"},
	{"bot_type", "max_message_id", openapi3.NewIntegerSchema(),
		"GET /users/me of a bot: Zulip answers with its user row, bot fields included (zerver/views/users.py get_profile_backend); the description omits them"},
	{"bot_owner_id", "max_message_id", openapi3.NewIntegerSchema().WithNullable(),
		"GET /users/me of a bot, as bot_type"},
	{"message_ids", "path_id", openapi3.NewArraySchema().WithItems(openapi3.NewIntegerSchema()),
		"attachments, feature level 472 (spec: Attachment; it replaces messages)"},
	{"idle_queue_timeout_secs", "queue_id", openapi3.NewIntegerSchema(),
		"register, feature level 481 (Zulip 12.0's register-queue docs; zulip-flutter)"},
	// Fields of older levels, sent only when the realm advertises a level
	// below the one that removed or renamed them.
	{"extra_data", "property", openapi3.NewObjectSchema().WithProperty("upload_quota", openapi3.NewIntegerSchema().WithNullable()),
		"realm update events of plan_type below feature level 306, which removed it"},
	{"is_billing_admin", "is_bot", openapi3.NewBoolSchema(),
		"user objects below feature level 363, which removed it"},
	{"is_billing_admin", "realm_users", openapi3.NewBoolSchema(),
		"register's own-user fields below feature level 363"},
	{"user", "emoji_code", openapi3.NewObjectSchema(),
		"message objects' reactions below feature level 328, which removed it"},
	{"prev_rendered_content_version", "orig_rendered_content", openapi3.NewIntegerSchema(),
		"update_message events below feature level 284, which removed it"},
	{"email_address", "in_home_view", openapi3.NewStringSchema(),
		"subscription objects below feature level 226, which removed it"},
	{"url_prefix", "pygments_language", openapi3.NewStringSchema(),
		"code playgrounds below feature level 196, which replaced it with url_template"},
	{"allow_owners_group", "default_for_system_groups", openapi3.NewBoolSchema(),
		"server_supported_permission_settings entries below feature level 326, which removed it"},
	{"id_field_name", "default_for_system_groups", openapi3.NewStringSchema(),
		"server_supported_permission_settings entries below feature level 326, which removed it"},
	{"dense_mode", "emojiset", openapi3.NewBoolSchema(),
		"personal settings below feature level 364, which removed it"},
	{"edit_topic_policy", "allow_message_editing", openapi3.NewIntegerSchema(),
		"realm update_dict events below feature level 316, which replaced it with can_move_messages_between_topics_group"},
	{"default_view", "emojiset", openapi3.NewStringSchema(),
		"personal settings below feature level 219, which renamed it web_home_view"},
	{"escape_navigates_to_default_view", "emojiset", openapi3.NewBoolSchema(),
		"personal settings below feature level 219, which renamed it web_escape_navigates_to_home_view"},
	{"realm_notifications_stream_id", "realm_new_stream_announcements_stream_id", openapi3.NewIntegerSchema(),
		"register below feature level 241, which renamed it"},
	{"realm_signup_notifications_stream_id", "realm_signup_announcements_stream_id", openapi3.NewIntegerSchema(),
		"register below feature level 241, which renamed it"},
	{"var_name", "code", openapi3.NewStringSchema(),
		"REQUEST_VARIABLE_MISSING/INVALID errors always carry it (reference/errors.md); the description lists it on some operations only"},
	{"bad_value", "code", openapi3.NewSchema(),
		"REQUEST_VARIABLE_INVALID errors (reference/errors.md)"},
	{"is_last_owner", "code", openapi3.NewBoolSchema(),
		"CANNOT_DEACTIVATE_LAST_USER errors (reference/errors.md)"},
	{"entity", "code", openapi3.NewStringSchema(),
		"CANNOT_DEACTIVATE_LAST_USER errors (reference/errors.md)"},
	{"first_message_id_allowed_to_move", "code", openapi3.NewIntegerSchema().WithNullable(),
		"MOVE_MESSAGES_TIME_LIMIT_EXCEEDED errors, feature level 172 (spec: errors; the description names them only in prose and an example)"},
	{"total_messages_in_topic", "code", openapi3.NewIntegerSchema(),
		"MOVE_MESSAGES_TIME_LIMIT_EXCEEDED errors, as first_message_id_allowed_to_move"},
	{"total_messages_allowed_to_move", "code", openapi3.NewIntegerSchema(),
		"MOVE_MESSAGES_TIME_LIMIT_EXCEEDED errors, as first_message_id_allowed_to_move"},
}

// allowedValues are enum values the spec names that Zulip's description
// lacks, each added to every enum of its field that is missing it.
var allowedValues = []struct{ field, value, why string }{
	{"reaction_type", "service_extra_emoji",
		"the special built-in emoji's reaction type as the spec names it at level 496 (spec: Reaction); the description says zulip_extra_emoji"},
}

// groupSettingSchema is a group-setting value: a group ID or an object of
// direct members and subgroups.
func groupSettingSchema() *openapi3.Schema {
	obj := openapi3.NewObjectSchema().
		WithProperty("direct_members", openapi3.NewArraySchema().WithItems(openapi3.NewIntegerSchema())).
		WithProperty("direct_subgroups", openapi3.NewArraySchema().WithItems(openapi3.NewIntegerSchema()))
	return openapi3.NewAnyOfSchema(openapi3.NewIntegerSchema(), obj)
}

// allowNewer adds the allowed fields to every object schema below s that
// carries their anchor, and the allowed values to the enums of their
// fields.
func allowNewer(s *openapi3.Schema, seen map[*openapi3.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	for _, a := range allowed {
		if _, ok := s.Properties[a.anchor]; ok {
			if _, has := s.Properties[a.field]; !has {
				s.Properties[a.field] = openapi3.NewSchemaRef("", a.schema)
			}
		}
	}
	for _, a := range allowedValues {
		if p := s.Properties[a.field]; p != nil && p.Value != nil && len(p.Value.Enum) > 0 && !slices.Contains(p.Value.Enum, any(a.value)) {
			p.Value.Enum = append(p.Value.Enum, a.value)
		}
	}
	for _, c := range children(s) {
		allowNewer(c, seen)
	}
}

// children lists the schemas directly inside s: properties, items,
// additional properties and the members of oneOf, anyOf and allOf.
func children(s *openapi3.Schema) []*openapi3.Schema {
	var out []*openapi3.Schema
	add := func(r *openapi3.SchemaRef) {
		if r != nil && r.Value != nil {
			out = append(out, r.Value)
		}
	}
	for _, p := range s.Properties {
		add(p)
	}
	add(s.Items)
	add(s.AdditionalProperties.Schema)
	for _, list := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf, s.AllOf} {
		for _, r := range list {
			add(r)
		}
	}
	return out
}

// flattenAllOf merges every allOf into one object schema, as Zulip's own
// validator reads its description: the members' properties are the
// object's, and additionalProperties false on any member forbids keys
// that no member declares.
func flattenAllOf(s *openapi3.Schema, seen map[*openapi3.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	for _, c := range children(s) {
		flattenAllOf(c, seen)
	}
	// Zulip's validator reads oneOf as "at least one": its error schemas
	// overlap, so a strict oneOf refuses valid answers.
	if len(s.OneOf) > 1 {
		s.AnyOf, s.OneOf = append(s.AnyOf, s.OneOf...), nil
	}
	if len(s.AllOf) == 0 {
		return
	}
	props := openapi3.Schemas{}
	for k, v := range s.Properties {
		props[k] = v
	}
	required := append([]string{}, s.Required...)
	closed := s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has
	for _, r := range s.AllOf {
		if r == nil || r.Value == nil {
			continue
		}
		m := r.Value
		flattenAllOf(m, seen)
		for k, v := range m.Properties {
			props[k] = v
		}
		required = append(required, m.Required...)
		if m.AdditionalProperties.Has != nil && !*m.AdditionalProperties.Has {
			closed = true
		}
		if s.Type == nil && m.Type != nil {
			s.Type = m.Type
		}
	}
	s.AllOf = nil
	s.Properties = props
	s.Required = required
	if closed {
		f := false
		s.AdditionalProperties = openapi3.AdditionalProperties{Has: &f}
	}
}

// The check itself: a response with a field the description does not
// have, and an event of an unknown shape, are deviations; the allowed
// fields are not.
func TestContractCheckCatchesDeviations(t *testing.T) {
	if probe.contract == nil {
		t.Skip("the contract description is not available")
	}
	probe.mu.Lock()
	saved, savedN, savedEvents := probe.fails, probe.n, probe.events
	probe.fails = nil
	probe.mu.Unlock()
	defer func() {
		probe.mu.Lock()
		probe.fails, probe.n, probe.events = saved, savedN, savedEvents
		probe.mu.Unlock()
	}()
	req := httptest.NewRequest("GET", "/api/v1/users/me", nil)
	h := http.Header{"Content-Type": {"application/json"}}
	good := `{"result":"success","msg":"","avatar_url":"x","avatar_version":1,"email":"a@b.c","full_name":"A","is_admin":false,
"is_owner":false,"role":400,"is_guest":false,"is_bot":false,"is_active":true,"timezone":"","date_joined":"d","max_message_id":-1,
"user_id":1,"delivery_email":"a@b.c","profile_data":{},"is_imported_stub":false}`
	contractCheck(req, 200, h, []byte(good))
	if len(probe.fails) != 0 {
		t.Fatalf("a conforming answer (with an allowed newer field) deviates: %v", probe.fails)
	}
	bad := strings.Replace(good, `"is_imported_stub":false`, `"is_imported_stubb":false`, 1)
	contractCheck(req, 200, h, []byte(bad))
	if len(probe.fails) != 1 {
		t.Fatalf("an unknown field was not caught: %v", probe.fails)
	}
	ev := httptest.NewRequest("GET", "/api/v1/events?queue_id=x&last_event_id=-1", nil)
	contractCheck(ev, 200, h, []byte(`{"result":"success","msg":"","queue_id":"x","events":[{"id":0,"type":"heartbeat"},{"id":1,"type":"heartbeat","extra":1}]}`))
	if len(probe.fails) != 2 {
		t.Fatalf("an event with an unknown field was not caught: %v", probe.fails)
	}
}
