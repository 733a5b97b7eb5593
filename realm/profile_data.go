package realm

import (
	"context"
	"errors"

	"github.com/minizulip/minizulip/user"
)

// ProfileDataUpdate is one value of PATCH /users/me/profile_data: a string,
// or for user fields a []int of user IDs.
type ProfileDataUpdate struct {
	ID    int
	Value any
}

// UpdateProfileData sets the caller's values of custom profile fields.
// Humans only; fields not editable by users only for administrators.
// Every value is checked before any is stored; each changed one is a
// realm_user update event to every active user.
func (a *Actor) UpdateProfileData(ctx context.Context, data []ProfileDataUpdate) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if me.IsBot() {
			return BadRequest("This endpoint does not accept bot requests.")
		}
		changes := make([]profileChange, len(data))
		for i, d := range data {
			f, err := r.editableProfileField(me, d.ID)
			if err != nil {
				return err
			}
			v, err := r.checkProfileValue(f, d.Value)
			if err != nil {
				return err
			}
			changes[i] = profileChange{id: d.ID, value: v}
		}
		r.applyProfileData(me, changes)
		return nil
	})
}

// RemoveProfileData clears the caller's values of the fields ids (DELETE
// /users/me/profile_data); a field without a value is no error.
func (a *Actor) RemoveProfileData(ctx context.Context, ids []int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if me.IsBot() {
			return BadRequest("This endpoint does not accept bot requests.")
		}
		for _, id := range ids {
			if _, err := r.editableProfileField(me, id); err != nil {
				return err
			}
		}
		changes := make([]profileChange, len(ids))
		for i, id := range ids {
			changes[i] = profileChange{id: id, remove: true}
		}
		r.applyProfileData(me, changes)
		return nil
	})
}

// checkProfileValue checks a value for field f and returns it as stored.
func (r *Realm) checkProfileValue(f *CustomProfileField, value any) (string, error) {
	v, err := user.CheckProfileValue(f.Name, f.Type, f.FieldData, value, r.checkProfileUser)
	if re := (*Error)(nil); errors.As(err, &re) {
		return "", re
	} else if err != nil {
		return "", BadRequest("%s", err.Error())
	}
	return v, nil
}

// editableProfileField is field id, if me may change their value of it.
func (r *Realm) editableProfileField(me *user.User, id int) (*CustomProfileField, error) {
	f := r.profileField(id)
	if f == nil {
		return nil, BadRequest("Field id %d not found.", id)
	}
	if !f.EditableByUser && !me.Role.IsAdmin() {
		return nil, BadRequest("You are not allowed to change this field. Contact an administrator to update it.")
	}
	return f, nil
}

// checkProfileUser checks one user of a user field's value: an active
// human of the realm.
func (r *Realm) checkProfileUser(id int) error {
	u := r.realmUser(id)
	switch {
	case u == nil:
		return BadRequest("Invalid user ID: %d", id)
	case !u.IsActive:
		return BadRequest("User with ID %d is deactivated", id)
	case u.IsBot():
		return BadRequest("User with ID %d is a bot", id)
	}
	return nil
}

// emitProfileValue tells every active user u's value of field id (nil:
// removed), with rendered_value for Markdown fields.
func (r *Realm) emitProfileValue(u *user.User, id int, pv *user.ProfileValue) {
	field := map[string]any{"id": id, "value": nil}
	if pv != nil {
		field["value"] = pv.Value
		if pv.RenderedValue != "" {
			field["rendered_value"] = pv.RenderedValue
		}
	}
	r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": u.ID, "custom_profile_field": field}},
		r.activeUserIDs()...)
}
