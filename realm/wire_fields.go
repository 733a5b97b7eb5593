package realm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Fields of answers and events by feature level: the table's "field
// gate" rows name a field of a JSON object the realm encodes (a channel,
// a subscription, a user group, the personal settings…) and the level
// that added it. A realm advertising a lower level leaves the field out
// wherever such an object is sent, as a server of that level did. The
// realm encodes its objects as the newest level does; below the newest
// gated level, answers and events are edited once encoded, so the
// default level pays nothing.

// fieldGate is the Honour of the rows edited here ("field gate", or
// "field gate (…)" for a field the fake does not send yet).
const fieldGate = "field gate"

// wireKinds maps the "where" of the table's field rows to the kind of
// object they describe: Zulip's description names one object by several
// schemas (a channel is BasicChannel, BasicChannelBase and GET /streams'
// items).
var wireKinds = map[string]string{
	"schema register_queue_200_response_allOf_user_settings":                "user_settings",
	"schema register_queue_200_response_allOf_realm_user_settings_defaults": "user_settings_defaults",
	"schema UserGroup": "user_group",
	"schema get_user_groups_200_response_allOf_user_groups_inner":     "user_group",
	"event user_group update data":                                    "user_group_data",
	"event realm update_dict data":                                    "realm_data",
	"schema BasicChannel":                                             "stream",
	"schema BasicChannelBase":                                         "stream",
	"schema get_streams_200_response_allOf_streams_inner":             "stream",
	"schema Subscription":                                             "subscription",
	"schema register_queue_200_response_allOf_never_subscribed_inner": "never_subscribed",
	"schema RealmPlayground":                                          "playground",
	"schema CustomProfileField":                                       "profile_field",
	"schema Invite":                                                   "invite",
	"schema BasicBot":                                                 "bot",
	"schema OnboardingStep":                                           "onboarding_step",
	"schema register_queue_200_response_allOf_realm_incoming_webhook_bots_inner": "incoming_webhook_bot",
}

// wireSchemaFields maps rows about a whole schema to the field that
// carries it and the kinds of object that have the field: a channel's
// group settings are their own schemas, each the value of one field.
var wireSchemaFields = map[string]struct {
	field string
	kinds []string
}{
	"schema CanAdministerChannelGroup":         {"can_administer_channel_group", channelKinds},
	"schema CanSendMessageGroup":               {"can_send_message_group", channelKinds},
	"schema ChannelCanAddSubscribersGroup":     {"can_add_subscribers_group", channelKinds},
	"schema CanSubscribeGroup":                 {"can_subscribe_group", channelKinds},
	"schema CanMoveMessagesOutOfChannelGroup":  {"can_move_messages_out_of_channel_group", channelKinds},
	"schema CanMoveMessagesWithinChannelGroup": {"can_move_messages_within_channel_group", channelKinds},
	"schema CanResolveTopicsGroup":             {"can_resolve_topics_group", channelKinds},
	"schema CanDeleteAnyMessageGroup":          {"can_delete_any_message_group", channelKinds},
	"schema CanDeleteOwnMessageGroup":          {"can_delete_own_message_group", channelKinds},
	"schema FolderId":                          {"folder_id", channelKinds},
	"schema TopicsPolicy":                      {"topics_policy", channelKinds},
	"schema register_queue_200_response_allOf_server_supported_permission_settings": {"server_supported_permission_settings", []string{"POST /register"}},
	"schema register_queue_200_response_allOf_realm_billing":                        {"realm_billing", []string{"POST /register"}},
}

// channelKinds are the objects that carry a channel's settings.
var channelKinds = []string{"stream", "subscription"}

// wirePlaces lists, per answer (an endpoint, its path wildcards unnamed,
// or "event type op"), where the objects of each kind sit in it: a path
// of member names, "[]" for each item of a list. An endpoint's own
// top-level fields are its kind, at the empty path.
var wirePlaces = map[string][]struct {
	path  string
	kinds []string
}{
	"POST /register": {
		{"user_settings", []string{"user_settings"}},
		{"realm_user_settings_defaults", []string{"user_settings_defaults"}},
		{"streams.[]", []string{"stream"}},
		{"subscriptions.[]", []string{"subscription"}},
		{"unsubscribed.[]", []string{"subscription"}},
		{"never_subscribed.[]", []string{"stream", "never_subscribed"}},
		{"realm_user_groups.[]", []string{"user_group"}},
		{"realm_playgrounds.[]", []string{"playground"}},
		{"custom_profile_fields.[]", []string{"profile_field"}},
		{"realm_bots.[]", []string{"bot"}},
		{"onboarding_steps.[]", []string{"onboarding_step"}},
		{"realm_incoming_webhook_bots.[]", []string{"incoming_webhook_bot"}},
	},
	"GET /streams":                {{"streams.[]", []string{"stream"}}},
	"GET /streams/{}":             {{"stream", []string{"stream"}}},
	"GET /users/me/subscriptions": {{"subscriptions.[]", []string{"subscription"}}},
	"GET /user_groups":            {{"user_groups.[]", []string{"user_group"}}},
	"GET /realm/profile_fields":   {{"custom_fields.[]", []string{"profile_field"}}},
	"GET /invites":                {{"invites.[]", []string{"invite"}}},
	"event stream create":         {{"streams.[]", []string{"stream"}}},
	"event subscription add":      {{"subscriptions.[]", []string{"subscription"}}},
	"event user_group add":        {{"group", []string{"user_group"}}},
	"event realm_playgrounds":     {{"realm_playgrounds.[]", []string{"playground"}}},
	"event custom_profile_fields": {{"fields.[]", []string{"profile_field"}}},
	"event realm_bot add":         {{"bot", []string{"bot"}}},
	"event onboarding_steps":      {{"onboarding_steps.[]", []string{"onboarding_step"}}},
	"event user_group update":     {{"data", []string{"user_group_data"}}},
	"event realm update_dict":     {{"data", []string{"realm_data"}}},
}

// wireAnswerFields are rows whose field names a response rather than a
// member: POST /user_groups/create answers with the new group's ID from
// feature level 317.
var wireAnswerFields = map[string]string{
	"POST /user_groups/create|response 200": "group_id",
}

// wireField is one gated field: the kinds of object that carry it, and
// the level that added it.
type wireField struct {
	kinds []string
	field string
	level int
	// row is the key of the row the field comes from.
	row string
}

// wireFields are the table's field gate rows, resolved to kinds; a row
// the maps above do not place is a mistake of the table, caught when the
// package loads.
var wireFields, newestWireLevel = func() ([]wireField, int) {
	var out []wireField
	newest := 0
	for _, c := range featureChanges {
		if !strings.HasPrefix(c.Honour, fieldGate) {
			continue
		}
		f := wireField{kinds: rowKinds(c), field: rowField(c), level: c.Level, row: c.key()}
		if len(f.kinds) == 0 || f.field == "" {
			panic(fmt.Sprintf("feature_changes.tsv: field gate row %q names no object the realm encodes", c.key()))
		}
		out = append(out, f)
		newest = max(newest, c.Level)
	}
	return out, newest
}()

// isEndpoint reports whether a row's where is an endpoint ("GET /x").
func isEndpoint(where string) bool {
	method, path, ok := strings.Cut(where, " ")
	return ok && strings.HasPrefix(path, "/") && strings.ToUpper(method) == method
}

// wireEdit removes fields from the objects at one path of an answer, or
// gives them the names they had before.
type wireEdit struct {
	path   []string
	omit   []string
	rename []wireRename
}

// wireRename is a field a level names otherwise: below level, the
// kind's field is sent as old, its value converted.
type wireRename struct {
	kind, field, old string
	level            int
	// replacesGate: the field's gate row is the rename's, and below it
	// the older field is sent in its place.
	replacesGate bool
	value        func(json.RawMessage) json.RawMessage
}

// wireRenames are the fields that replaced an older one: below the
// rename's level, the older one is sent in its place (a value kept as
// is when value is nil); a field gated at a lower level than its rename
// is left out below its gate.
var wireRenames = []wireRename{
	// can_mention_group_id (191) and can_remove_subscribers_group_id
	// (older than the table) took their names without _id.
	{kind: "user_group", field: "can_mention_group", old: "can_mention_group_id", level: changeMentionGroupName.Level()},
	{kind: "user_group_data", field: "can_mention_group", old: "can_mention_group_id", level: changeMentionGroupName.Level()},
	{kind: "stream", field: "can_remove_subscribers_group", old: "can_remove_subscribers_group_id", level: changeRemoveSubscribersGroupName.Level()},
	{kind: "subscription", field: "can_remove_subscribers_group", old: "can_remove_subscribers_group_id", level: changeRemoveSubscribersGroupName.Level()},
	// web_home_view and web_escape_navigates_to_home_view (219) were
	// default_view and escape_navigates_to_default_view: in the
	// personal settings, their defaults, and the legacy top-level key of
	// register for clients without user_settings_object.
	{kind: "user_settings", field: "web_home_view", old: "default_view", replacesGate: true, level: gateLevel("user_settings", "web_home_view")},
	{kind: "user_settings_defaults", field: "web_home_view", old: "default_view", replacesGate: true, level: gateLevel("user_settings", "web_home_view")},
	{kind: "POST /register", field: "web_home_view", old: "default_view", replacesGate: true, level: gateLevel("user_settings", "web_home_view")},
	{kind: "user_settings", field: "web_escape_navigates_to_home_view", old: "escape_navigates_to_default_view", replacesGate: true,
		level: gateLevel("user_settings", "web_escape_navigates_to_home_view")},
	{kind: "user_settings_defaults", field: "web_escape_navigates_to_home_view", old: "escape_navigates_to_default_view", replacesGate: true,
		level: gateLevel("user_settings", "web_escape_navigates_to_home_view")},
	// url_template (196) replaced url_prefix, which the code was
	// appended to.
	{kind: "playground", field: "url_template", old: "url_prefix", level: 196, replacesGate: true, value: func(v json.RawMessage) json.RawMessage {
		var t string
		if json.Unmarshal(v, &t) != nil {
			return v
		}
		prefix, _, _ := strings.Cut(t, "{code}")
		out, _ := encodeUnescaped(prefix)
		return out
	}},
}

// gateLevel is the level of the field gate row of a kind's field.
func gateLevel(kind, field string) int {
	for _, w := range wireFields {
		if w.field == field && slices.Contains(w.kinds, kind) {
			return w.level
		}
	}
	panic(fmt.Sprintf("feature_changes.tsv: no field gate row for %s %s", kind, field))
}

// wireGates maps a kind and field ("user_group can_mention_group") to
// its field gate row's change.
var wireGates = func() map[string]Change {
	m := map[string]Change{}
	for _, w := range wireFields {
		for _, k := range w.kinds {
			m[k+" "+w.field] = Change{name: fieldGate, level: w.level}
		}
	}
	return m
}()

// renamed reports whether the realm sends rn's field by its older name:
// below the rename, unless the field is not sent at all yet (its gate,
// older than the rename, is newer than the realm's level).
func (r *Realm) renamed(rn wireRename) bool {
	if r.has(Change{name: fieldGate, level: rn.level}) {
		return false
	}
	gate, ok := wireGates[rn.kind+" "+rn.field]
	return !ok || rn.replacesGate || r.has(gate)
}

// WireFieldName is the name the realm sends a kind's field by
// (FieldPlace.Kind): its older name where a rename says so.
func (r *Realm) WireFieldName(kind, field string) string {
	for _, rn := range wireRenames {
		if rn.kind == kind && rn.field == field && r.renamed(rn) {
			return rn.old
		}
	}
	return field
}

// newestWireRename is the newest level of wireRenames.
var newestWireRename = func() int {
	n := 0
	for _, rn := range wireRenames {
		n = max(n, rn.level)
	}
	return n
}()

// wireFilter is what a feature level leaves out: per answer, the edits.
type wireFilter struct {
	edits map[string][]wireEdit
	// kindOmit is, per kind, the fields left out; kindRename the fields
	// sent by their older names.
	kindOmit   map[string][]string
	kindRename map[string][]wireRename
}

var wireFilters sync.Map // feature level -> *wireFilter

// wire is the realm's filter, nil at and above the newest gated level.
func (r *Realm) wire() *wireFilter {
	if r.has(Change{name: fieldGate, level: newestWireLevel}) && r.has(Change{name: fieldGate, level: newestWireRename}) {
		return nil
	}
	if f, ok := wireFilters.Load(r.opts.FeatureLevel); ok {
		return f.(*wireFilter)
	}
	f, _ := wireFilters.LoadOrStore(r.opts.FeatureLevel, r.newWireFilter())
	return f.(*wireFilter)
}

// newWireFilter gathers the fields newer than the realm's level by kind
// and places them in the answers.
func (r *Realm) newWireFilter() *wireFilter {
	f := &wireFilter{edits: map[string][]wireEdit{}, kindOmit: map[string][]string{}, kindRename: map[string][]wireRename{}}
	for _, w := range wireFields {
		if r.has(Change{name: fieldGate, level: w.level}) {
			continue
		}
		for _, k := range w.kinds {
			if !slices.Contains(f.kindOmit[k], w.field) {
				f.kindOmit[k] = append(f.kindOmit[k], w.field)
			}
		}
	}
	for _, rn := range wireRenames {
		if !r.renamed(rn) {
			continue
		}
		f.kindOmit[rn.kind] = slices.DeleteFunc(f.kindOmit[rn.kind], func(field string) bool { return field == rn.field })
		f.kindRename[rn.kind] = append(f.kindRename[rn.kind], rn)
	}
	for answer, places := range wirePlaces {
		for _, p := range places {
			e := wireEdit{path: strings.Split(p.path, ".")}
			for _, k := range p.kinds {
				e.omit = append(e.omit, f.kindOmit[k]...)
				e.rename = append(e.rename, f.kindRename[k]...)
			}
			if len(e.omit)+len(e.rename) > 0 {
				f.edits[answer] = append(f.edits[answer], e)
			}
		}
	}
	for k, omit := range f.kindOmit {
		if isEndpoint(k) {
			f.edits[k] = append(f.edits[k], wireEdit{path: []string{""}, omit: omit, rename: f.kindRename[k]})
		}
	}
	for k, renames := range f.kindRename {
		if _, done := f.kindOmit[k]; isEndpoint(k) && !done {
			f.edits[k] = append(f.edits[k], wireEdit{path: []string{""}, rename: renames})
		}
	}
	return f
}

// WireAnswer is v, the answer of the endpoint (method and route pattern
// below /api/v1), as a server of the realm's feature level encodes it:
// without the fields the table says came later. At and above the newest
// gated level it is v itself.
func (r *Realm) WireAnswer(method, pattern string, v any) any {
	f := r.wire()
	if f == nil || v == nil {
		return v
	}
	edits := f.edits[endpointKey(method+" "+pattern)]
	if len(edits) == 0 {
		return v
	}
	return wireAnswer{v: v, edits: edits}
}

// wireAnswer encodes an answer, then edits it.
type wireAnswer struct {
	v     any
	edits []wireEdit
}

// MarshalJSON encodes the answer without the fields of its edits.
func (a wireAnswer) MarshalJSON() ([]byte, error) {
	b, err := encodeUnescaped(a.v)
	if err != nil {
		return nil, err
	}
	return applyWireEdits(b, a.edits)
}

// eventEdits are the edits of an encoded event of type typ.
func (f *wireFilter) eventEdits(typ string, body []byte) []wireEdit {
	if e := f.edits["event "+typ]; len(e) > 0 {
		return e
	}
	var op struct {
		Op string `json:"op"`
	}
	if json.Unmarshal(body, &op) != nil || op.Op == "" {
		return nil
	}
	return f.edits["event "+typ+" "+op.Op]
}

// encodeUnescaped encodes v as httpapi does: HTML characters unescaped,
// no trailing newline.
func encodeUnescaped(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// applyWireEdits applies edits to an encoded answer, parsing each object
// on the edits' paths once.
func applyWireEdits(b []byte, edits []wireEdit) ([]byte, error) {
	out, _, err := editTree(b, edits, 0)
	return out, err
}

// editTree applies the edits, whose paths agree up to depth d, to raw,
// the value at that depth; changed says whether raw had anything to edit.
func editTree(raw []byte, edits []wireEdit, d int) (out []byte, changed bool, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return raw, false, nil
	}
	var here, items []*wireEdit
	var names []string
	byName := map[string][]wireEdit{}
	for i := range edits {
		e := &edits[i]
		switch {
		case len(e.path) <= d || e.path[d] == "":
			here = append(here, e)
		case e.path[d] == "[]":
			items = append(items, e)
		default:
			if _, ok := byName[e.path[d]]; !ok {
				names = append(names, e.path[d])
			}
			byName[e.path[d]] = append(byName[e.path[d]], *e)
		}
	}
	switch raw[0] {
	case '[':
		if len(items) == 0 {
			return raw, false, nil
		}
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, false, err
		}
		sub := make([]wireEdit, len(items))
		for i, e := range items {
			sub[i] = *e
		}
		for i := range list {
			v, c, err := editTree(list[i], sub, d+1)
			if err != nil {
				return nil, false, err
			}
			list[i], changed = v, changed || c
		}
		if !changed {
			return raw, false, nil
		}
		out, err = encodeUnescaped(list)
		return out, true, err
	case '{':
		if len(here)+len(names) == 0 {
			return raw, false, nil
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, false, err
		}
		for _, e := range here {
			changed = editMembers(m, e) || changed
		}
		for _, name := range names {
			v, ok := m[name]
			if !ok {
				continue
			}
			v, c, err := editTree(v, byName[name], d+1)
			if err != nil {
				return nil, false, err
			}
			m[name], changed = v, changed || c
		}
		if !changed {
			return raw, false, nil
		}
		out, err = encodeUnescaped(m)
		return out, true, err
	}
	return raw, false, nil
}

// editMembers removes and renames the members of an object; it reports
// whether any was there.
func editMembers(m map[string]json.RawMessage, e *wireEdit) bool {
	changed := false
	for _, k := range e.omit {
		if _, ok := m[k]; ok {
			delete(m, k)
			changed = true
		}
	}
	for _, r := range e.rename {
		if v, ok := m[r.field]; ok {
			delete(m, r.field)
			if r.value != nil {
				v = r.value(v)
			}
			m[r.old] = v
			changed = true
		}
	}
	return changed
}

// wirePayload is an event's payload as the realm's level sends it: the
// events that name the fields they change (the property of a realm,
// personal setting, default setting, channel or subscription update; the
// data of update_dict and user group updates) lose the fields newer than
// the level, and are not sent when nothing is left. ok is false for an
// event not to send.
func (r *Realm) wirePayload(p EventPayload) (_ EventPayload, ok bool) {
	f := r.wire()
	if f == nil {
		return p, true
	}
	switch ev := p.(type) {
	case RealmUpdateDictEvent:
		ev.Data, ok = withoutKeys(ev.Data, f.kindOmit["realm_data"])
		return ev, ok
	case UserGroupUpdateEvent:
		ev.Data, ok = withoutKeys(ev.Data, f.kindOmit["user_group_data"])
		ev.Data = withOlderNames(ev.Data, f.kindRename["user_group_data"])
		return ev, ok
	case StreamUpdateEvent:
		ev.Property = olderName(ev.Property, f.kindRename["stream"])
		return ev, !slices.Contains(f.kindOmit["stream"], p.(StreamUpdateEvent).Property)
	case SubscriptionUpdateEvent:
		ev.Property = olderName(ev.Property, f.kindRename["subscription"])
		return ev, !slices.Contains(f.kindOmit["subscription"], p.(SubscriptionUpdateEvent).Property)
	case RealmUpdateEvent:
		return p, !slices.Contains(f.kindOmit["realm_data"], ev.Property)
	case UserSettingsEvent:
		ev.Property = olderName(ev.Property, f.kindRename["user_settings"])
		return ev, !slices.Contains(f.kindOmit["user_settings"], p.(UserSettingsEvent).Property)
	case UpdateDisplaySettingsEvent:
		ev.SettingName = olderName(ev.SettingName, f.kindRename["user_settings"])
		return ev, true
	case RealmUserSettingsDefaultsEvent:
		ev.Property = olderName(ev.Property, f.kindRename["user_settings_defaults"])
		return ev, !slices.Contains(f.kindOmit["user_settings_defaults"], p.(RealmUserSettingsDefaultsEvent).Property)
	}
	return p, true
}

// olderName is the name a property is sent by, renamed or not.
func olderName(property string, renames []wireRename) string {
	for _, rn := range renames {
		if rn.field == property {
			return rn.old
		}
	}
	return property
}

// withOlderNames is m with its renamed keys sent by their older names (a
// copy when one is).
func withOlderNames(m map[string]any, renames []wireRename) map[string]any {
	var out map[string]any
	for _, rn := range renames {
		v, ok := m[rn.field]
		if !ok {
			continue
		}
		if out == nil {
			out = maps.Clone(m)
		}
		delete(out, rn.field)
		out[rn.old] = v
	}
	if out == nil {
		return m
	}
	return out
}

// withoutKeys is m without the omitted keys (a copy when one goes), and
// whether anything is left.
func withoutKeys(m map[string]any, omit []string) (map[string]any, bool) {
	var out map[string]any
	for _, k := range omit {
		if _, ok := m[k]; !ok {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(m))
			for k, v := range m {
				out[k] = v
			}
		}
		delete(out, k)
	}
	if out == nil {
		return m, len(m) > 0
	}
	return out, len(out) > 0
}

// wirePropertyEvents are the events that name the field they change in
// their property member, by the kind of object the field belongs to.
var wirePropertyEvents = map[string]string{
	"realm_data":             "event realm update",
	"user_settings":          "event user_settings update",
	"user_settings_defaults": "event realm_user_settings_defaults update",
	"stream":                 "event stream update",
	"subscription":           "event subscription update",
}

// FieldPlace is where an answer carries a field the table gates: the
// answer (an endpoint, path wildcards unnamed: "GET /streams/{}", or
// "event type op"), the path of the objects in it (member names, "[]"
// for each item of a list) and the field; Path ["=property"] is an
// event naming the field in its property member.
type FieldPlace struct {
	Answer string
	Path   []string
	Field  string
	// Kind is the kind of object that carries the field (WireFieldName).
	Kind string
}

// FieldPlaces lists where a "field gate" row's field is sent, for tests
// that look for it in answers; nil for other rows.
func FieldPlaces(c FeatureChange) []FieldPlace {
	var out []FieldPlace
	if !strings.HasPrefix(c.Honour, fieldGate) {
		return nil
	}
	for _, w := range wireFields {
		if w.row != c.key() {
			continue
		}
		for _, k := range w.kinds {
			if isEndpoint(k) {
				out = append(out, FieldPlace{Answer: k, Field: w.field, Kind: k})
			}
			for answer, places := range wirePlaces {
				for _, p := range places {
					if slices.Contains(p.kinds, k) {
						out = append(out, FieldPlace{Answer: answer, Path: strings.Split(p.path, "."), Field: w.field, Kind: k})
					}
				}
			}
			if ev := wirePropertyEvents[k]; ev != "" {
				out = append(out, FieldPlace{Answer: ev, Path: []string{"=property"}, Field: w.field, Kind: k})
			}
		}
		break
	}
	return out
}

// rowKinds are the kinds a field gate row's where resolves to.
func rowKinds(c FeatureChange) []string {
	switch {
	case wireAnswerFields[c.Where+"|"+c.Field] != "":
		return []string{endpointKey(c.Where)}
	case wireKinds[c.Where] != "":
		return []string{wireKinds[c.Where]}
	case wireSchemaFields[c.Where].field != "":
		return wireSchemaFields[c.Where].kinds
	case isEndpoint(c.Where):
		return []string{endpointKey(c.Where)}
	}
	return nil
}

// rowField is the member a field gate row's field is sent as.
func rowField(c FeatureChange) string {
	if r := wireAnswerFields[c.Where+"|"+c.Field]; r != "" {
		return r
	}
	if s := wireSchemaFields[c.Where]; s.field != "" {
		return s.field
	}
	return c.Field
}
