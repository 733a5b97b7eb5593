package realm

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// This file dumps and loads custom profile fields and users' values of
// them.

// dumpProfiles adds the realm's custom profile fields (by ID) and the
// users' values (by user, then field) to f; the caller holds the lock.
func (r *Realm) dumpProfiles(f *fixture.Document) {
	for _, pf := range slices.SortedFunc(slices.Values(r.profileFields), func(a, b CustomProfileField) int { return a.ID - b.ID }) {
		order, editable := pf.Order, pf.EditableByUser
		f.CustomProfileFields = append(f.CustomProfileFields, fixture.ProfileField{ID: pf.ID, Type: pf.Type, Name: pf.Name,
			Hint: pf.Hint, FieldData: pf.FieldData, Order: &order, DisplayInProfileSummary: pf.DisplayInProfileSummary,
			Required: pf.Required, EditableByUser: &editable})
	}
	for _, u := range r.users.sorted() {
		for _, id := range slices.Sorted(maps.Keys(u.ProfileData)) {
			pf := r.profileField(id)
			if pf == nil {
				continue
			}
			var v any = u.ProfileData[id].Value
			if pf.Type == FieldUser {
				var ids []int
				_ = json.Unmarshal([]byte(u.ProfileData[id].Value), &ids)
				v = ids
			}
			f.ProfileData = append(f.ProfileData, fixture.ProfileValue{UserID: u.ID, FieldID: id, Value: v})
		}
	}
}

// loadProfiles adds the document's custom profile fields, then the
// users' values.
func (r *Realm) loadProfiles(f *fixture.Document) error {
	if err := r.loadProfileFields(f); err != nil {
		return err
	}
	return r.loadProfileData(f)
}

// loadProfileFields checks each field as POST /realm/profile_fields
// does (type, label, hint, field data, a label unique, at most two in
// the profile summary); a built-in external account takes its name and
// hint, as there. A field without an order takes its ID.
func (r *Realm) loadProfileFields(f *fixture.Document) error {
	ids := []int{}
	for i, ff := range f.CustomProfileFields {
		at := fmt.Sprintf("custom_profile_fields[%d]", i)
		if ff.ID <= 0 || r.profileField(ff.ID) != nil {
			return badItem(at+".id", "%s custom profile field ID %d", invalidOrDuplicate(ff.ID <= 0), ff.ID)
		}
		pf := CustomProfileField{ID: ff.ID, Name: strings.TrimSpace(ff.Name), Type: ff.Type, Hint: ff.Hint, Order: ff.ID,
			DisplayInProfileSummary: ff.DisplayInProfileSummary, Required: ff.Required, EditableByUser: true}
		if ff.Order != nil {
			pf.Order = *ff.Order
		}
		if ff.EditableByUser != nil {
			pf.EditableByUser = *ff.EditableByUser
		}
		if pf.DisplayInProfileSummary && r.summaryFieldCount(0) >= user.MaxProfileSummaryFields {
			return badItem(at+".display_in_profile_summary", "%s", summaryLimitError().Msg)
		}
		if err := r.checkProfileField(&pf, ff.FieldData); err != nil {
			return badItem(at, "%s", reason(err))
		}
		if user.IsDefaultExternalAccount(pf.Type, pf.FieldData) {
			def := user.DefaultExternalAccounts[user.ExternalSubtype(pf.FieldData)]
			pf.Name, pf.Hint = def.Name, def.Hint
		}
		if r.profileFieldNamed(pf.Name, 0) {
			return badItem(at+".name", "A field with that label already exists.")
		}
		r.profileFields = append(r.profileFields, pf)
		ids = append(ids, ff.ID)
	}
	r.sortProfileFields()
	r.nextProfileFieldID = nextAfter(1, ids...)
	return nil
}

// loadProfileData checks each value as an administrator's PATCH
// /users/{id} does (a known field, a value of its type; a user field's
// users are humans of the realm, deactivated ones allowed as they keep
// their place in values set before); a user has one value per field.
func (r *Realm) loadProfileData(f *fixture.Document) error {
	for i, fv := range f.ProfileData {
		at := fmt.Sprintf("profile_data[%d]", i)
		u := r.realmUser(fv.UserID)
		if u == nil {
			return badItem(at+".user_id", "no user %d", fv.UserID)
		}
		pf := r.profileField(fv.FieldID)
		if pf == nil {
			return badItem(at+".field_id", "Field id %d not found.", fv.FieldID)
		}
		if _, dup := u.ProfileData[pf.ID]; dup {
			return badItem(at+".field_id", "user %d has another value for field %d", fv.UserID, fv.FieldID)
		}
		value := fv.Value
		if list, ok := value.([]any); ok {
			value = fixtureIntList(list)
		}
		if s, ok := value.(string); value == nil || ok && s == "" {
			return badItem(at+".value", "empty value")
		}
		v, err := user.CheckProfileValue(pf.Name, pf.Type, pf.FieldData, value, r.checkFixtureProfileUser)
		if err != nil {
			return badItem(at+".value", "%s", reason(err))
		}
		if u.ProfileData == nil {
			u.ProfileData = map[int]user.ProfileValue{}
		}
		u.ProfileData[pf.ID] = r.profileValue(pf, v)
	}
	return nil
}

// fixtureIntList is list as user IDs, or list itself when an item is no
// whole number (CheckProfileValue then refuses it).
func fixtureIntList(list []any) any {
	ids := make([]int, 0, len(list))
	for _, x := range list {
		n, ok := x.(float64)
		if !ok || n != math.Trunc(n) || math.Abs(n) > math.MaxInt32 {
			return list
		}
		ids = append(ids, int(n))
	}
	return ids
}

// checkFixtureProfileUser checks a user of a user field's value: a human
// of the realm.
func (r *Realm) checkFixtureProfileUser(id int) error {
	u := r.realmUser(id)
	switch {
	case u == nil:
		return BadRequest("Invalid user ID: %d", id)
	case u.IsBot():
		return BadRequest("User with ID %d is a bot", id)
	}
	return nil
}
