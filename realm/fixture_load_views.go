package realm

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// This file dumps and loads users' navigation views and saved snippets,
// and the realm's defaults of personal settings.

// dumpViews adds the navigation views and saved snippets (by user, in
// the order added) and the settings defaults that differ from a new
// realm's to f; the caller holds the lock.
func (r *Realm) dumpViews(f *fixture.Document) {
	for _, uid := range slices.Sorted(maps.Keys(r.navigationViews)) {
		for _, v := range r.navigationViews[uid] {
			fv := fixture.NavigationView{UserID: uid, Fragment: v.Fragment, IsPinned: v.IsPinned}
			if v.Name != nil {
				name := *v.Name
				fv.Name = &name
			}
			f.NavigationViews = append(f.NavigationViews, fv)
		}
	}
	for _, uid := range slices.Sorted(maps.Keys(r.snippets)) {
		for _, s := range r.snippets[uid] {
			f.SavedSnippets = append(f.SavedSnippets, fixture.SavedSnippet{ID: s.ID, UserID: uid, Title: s.Title,
				Content: s.Content, DateCreated: s.DateCreated})
		}
	}
	defaults := user.DefaultSettings()
	for _, d := range user.SettingDefs {
		if v := d.Get(&r.settingsDefaults); v != d.Get(&defaults) {
			if f.UserSettingsDefaults == nil {
				f.UserSettingsDefaults = map[string]any{}
			}
			f.UserSettingsDefaults[d.Name] = v
		}
	}
}

// loadViews adds the document's navigation views, saved snippets and
// settings defaults.
func (r *Realm) loadViews(f *fixture.Document) error {
	for _, step := range []func(*fixture.Document) error{r.loadNavigationViews, r.loadSnippets, r.loadSettingsDefaults} {
		if err := step(f); err != nil {
			return err
		}
	}
	return nil
}

// loadNavigationViews checks each view as POST /navigation_views does:
// a fragment, a name for custom views and none for built-in ones, and
// neither the fragment nor the name twice for a user.
func (r *Realm) loadNavigationViews(f *fixture.Document) error {
	for i, fv := range f.NavigationViews {
		at := fmt.Sprintf("navigation_views[%d]", i)
		if r.realmUser(fv.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fv.UserID)
		}
		fragment := strings.TrimSpace(fv.Fragment)
		if fragment == "" {
			return badItem(at+".fragment", "fragment cannot be blank")
		}
		var name *string
		if fv.Name != nil {
			trimmed := strings.TrimSpace(*fv.Name)
			if trimmed == "" {
				return badItem(at+".name", "name cannot be blank")
			}
			name = &trimmed
		}
		if slices.Contains(builtInViewFragments, fragment) {
			if name != nil {
				return badItem(at+".name", "Built-in views cannot have a custom name.")
			}
		} else if name == nil {
			return badItem(at+".name", "Custom views must have a valid name.")
		}
		if r.navigationView(fv.UserID, fragment) != nil || name != nil && r.navigationViewNamed(fv.UserID, *name) {
			return badItem(at, "Navigation view already exists.")
		}
		if r.navigationViews == nil {
			r.navigationViews = map[int][]*NavigationView{}
		}
		r.navigationViews[fv.UserID] = append(r.navigationViews[fv.UserID], &NavigationView{Fragment: fragment, IsPinned: fv.IsPinned, Name: name})
	}
	return nil
}

// loadSnippets checks each snippet as POST /saved_snippets does (title
// and content); a snippet without a creation date was created when
// loaded.
func (r *Realm) loadSnippets(f *fixture.Document) error {
	ids := []int{}
	now := r.clock.Now().Unix()
	for i, fs := range f.SavedSnippets {
		at := fmt.Sprintf("saved_snippets[%d]", i)
		if fs.ID <= 0 || slices.Contains(ids, fs.ID) {
			return badItem(at+".id", "%s saved snippet ID %d", invalidOrDuplicate(fs.ID <= 0), fs.ID)
		}
		if r.realmUser(fs.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fs.UserID)
		}
		title, content := fs.Title, fs.Content
		if err := r.checkSnippet(&title, &content); err != nil {
			return badItem(at, "%s", reason(err))
		}
		created := fs.DateCreated
		if created == 0 {
			created = now
		}
		if r.snippets == nil {
			r.snippets = map[int][]*SavedSnippet{}
		}
		r.snippets[fs.UserID] = append(r.snippets[fs.UserID], &SavedSnippet{ID: fs.ID, Title: title, Content: content, DateCreated: created})
		ids = append(ids, fs.ID)
	}
	r.nextSnippetID = nextAfter(1, ids...)
	return nil
}

// loadSettingsDefaults checks the settings defaults as PATCH
// /realm/user_settings_defaults does: known personal settings, each
// with a value it takes.
func (r *Realm) loadSettingsDefaults(f *fixture.Document) error {
	s, err := r.fixtureUserSettings("realm_user_default", f.UserSettingsDefaults)
	if err != nil {
		return err
	}
	r.settingsDefaults = s
	return nil
}
